// src/core/iam/default-config.ts: the IAM configuration installed on first start (spec iam.md §7)

/**
 * Roles for security admins, developers, CI/CD, the scheduler and applications, with data tiers by
 * data type. PolDenyAllAll in the non-data roles keeps them away from data even by mistake.
 */
export const DEFAULT_IAM_TOML = `
[policies.PolDenyAllAll]
policy_type = "deny"
operations = ["*"]
reasons = ["*"]
resources = ["*"]

[policies.PolAllowAllMeta]     # built-ins and id
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*/properties/_*", "*/properties/id", "*/tokens"]

[policies.PolAllowAllLow]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*/types/GENDER", "*/types/EMAIL.mask", "*/types/PHONE_NUMBER.mask"]

[policies.PolAllowAllMed]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*/types/DATE_OF_BIRTH", "*/types/US_BANK_ROUTING", "*/types/SSN.mask",
             "*/types/BAN.mask", "*/types/CC_NUMBER.mask"]

[policies.PolAllowAllHigh]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*/types/EMAIL", "*/types/SSN", "*/types/PHONE_NUMBER", "*/types/ZIP_CODE_US",
             "*/types/NAME", "*/types/ADDRESS", "*/types/US_BANK_ACCOUNT_NUMBER", "*/types/BAN",
             "*/types/CC_HOLDER_NAME", "*/types/CC_EXPIRATION_STRING"]

[policies.PolAllowWriteHigh]   # write, tokenize, encrypt, hash but no read of raw values
policy_type = "allow"
operations = ["write", "tokenize", "encrypt", "hash", "search"]
reasons = ["*"]
resources = ["*"]

[policies.PolAllowDetokenizeAll]
policy_type = "allow"
operations = ["detokenize", "read"]
reasons = ["*"]
resources = ["*"]

[policies.PolAllowPci]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*/types/CC_NUMBER", "*/types/CC_CVV"]

[roles.SecurityAdmin]
capabilities = ["CapIAMReader", "CapIAMWriter", "CapKMSReader", "CapKMSWriter",
  "CapConfvarReader", "CapConfvarWriter", "CapErrorWriter", "CapClusterInfoReader",
  "CapInfoReader", "CapSystemGCRunner"]
policies = ["PolDenyAllAll"]

[roles.Developer]
capabilities = ["CapIAMReader", "CapConfvarReader", "CapClusterInfoReader", "CapInfoReader",
  "CapCollectionsReader", "CapCollectionsWriter", "CapCodeReader", "CapTypesReader"]
policies = ["PolDenyAllAll"]

[roles.CICD]
capabilities = ["CapIAMReader", "CapIAMWriter", "CapKMSReader", "CapKMSWriter",
  "CapConfvarReader", "CapConfvarWriter", "CapClusterInfoReader", "CapInfoReader",
  "CapCollectionsReader", "CapCollectionsWriter", "CapCodeReader", "CapCodeWriter",
  "CapTypesReader", "CapTypesWriter", "CapActionReader", "CapActionWriter"]
policies = ["PolDenyAllAll"]

[roles.VaultScheduler]
capabilities = ["CapKMSReader", "CapKMSWriter", "CapSystemGCRunner"]
policies = ["PolDenyAllAll"]

[roles.ExternalApplication]
capabilities = ["CapDataWriter", "CapDataSearcher", "CapObjectsReader", "CapTokensWriter",
  "CapTokensReader", "CapCryptoEncrypter", "CapCryptoHasher", "CapTransactionIdReader"]
policies = ["PolAllowAllMeta", "PolAllowAllLow", "PolAllowAllMed", "PolAllowWriteHigh"]

[roles.InternalApplication]
capabilities = ["CapDataReader", "CapDataWriter", "CapDataSearcher", "CapTokensWriter",
  "CapTokensReader", "CapTokensDetokenizer", "CapCryptoEncrypter", "CapCryptoDecrypter",
  "CapCryptoHasher", "CapTransactionIdReader"]
policies = ["PolAllowAllMeta", "PolAllowAllLow", "PolAllowAllMed", "PolAllowAllHigh"]

[roles.PrivilegedService]
capabilities = ["CapDataReader", "CapDataWriter", "CapDataSearcher", "CapTokensWriter",
  "CapTokensReader", "CapTokensDetokenizer", "CapCryptoEncrypter", "CapCryptoDecrypter",
  "CapCryptoHasher", "CapTransactionIdReader", "CapActionInvoker"]
policies = ["PolAllowAllMeta", "PolAllowAllLow", "PolAllowAllMed", "PolAllowAllHigh",
  "PolAllowPci"]

[roles.TokenConsumerService]
capabilities = ["CapTokensDetokenizer"]
policies = ["PolAllowDetokenizeAll"]

[users.SecurityAdmin]
role = "SecurityAdmin"
[users.Developer]
role = "Developer"
[users.CICD]
role = "CICD"
[users.VaultScheduler]
role = "VaultScheduler"
[users.Webapp]
role = "ExternalApplication"
[users.SupportApp]
role = "InternalApplication"
[users.IdentityService]
role = "PrivilegedService"
[users.TokenConsumer]
role = "TokenConsumerService"
`
