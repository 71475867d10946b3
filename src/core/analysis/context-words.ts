// src/core/analysis/context-words.ts: words that make a nearby value more (or less) likely PII, in English, Spanish, German and French
// Lower-case single words; a recognizer looks for them among the few words before a candidate.

const words = (...lists: readonly string[]) =>
  new Set(lists.flatMap((l) => l.split(/\s+/)).filter(Boolean))

export const PHONE_WORDS = words(
  'phone tel tele telephone mobile mob cell cellphone call ring text sms whatsapp fax contact reach',
  'teléfono telefono tel móvil movil llamar llámenme llamarme llámame llamadme celular contacto whatsapp',
  'telefon telefonnummer tel handy handynummer mobil mobilnummer anrufen rufen erreichen rückruf fax',
  'téléphone telephone tél tel portable mobile appeler rappeler joindre fixe',
  'phone_number telefono_movil',
)

/** Words near a number that make it an organisation's service line, not a person's phone. */
export const SERVICE_LINE_WORDS = words(
  'hotline helpline toll-free tollfree freephone switchboard sales support',
  'gratuito gratuita atención centralita',
  'servicehotline hotline kostenfrei kostenlos gebührenfrei zentrale kundenservice',
  'gratuit standard assistance',
)

/** Words before a number that make it an identifier of a thing, not a phone or an ID. */
export const THING_WORDS = words(
  'order invoice ticket tracking reference ref ref. sku batch build version ver release id case po serial item parcel shipment transaction txn',
  'lot part product policy contract coupon voucher confirmation booking reservation mrn',
  'pedido factura incidencia seguimiento referencia versión lote envío producto póliza contrato reserva localizador expediente',
  'bestellung rechnung ticket sendungsnummer sendung referenz version charge auftrag vorgang',
  'bestellnr bestellnummer rechnungsnummer rechnungsnr auftragsnummer artikel artikelnummer artikel-nr kundennummer kundennr vertrag vertragsnummer buchung',
  'commande facture suivi référence reference version lot colis dossier',
  'article produit contrat réservation matricule',
  'iban account card tarjeta karte carte',
)

export const CARD_WORDS = words(
  'card credit debit visa mastercard amex cc pan card_number',
  'tarjeta crédito credito débito',
  'karte kreditkarte kartennummer',
  'carte crédit bancaire cb',
)

export const SSN_WORDS = words(
  'ssn social security ss# ssn# seguro social sozialversicherungsnummer',
)

export const IBAN_WORDS = words('iban account bank cuenta konto compte bancaire rib')

export const IP_WORDS = words(
  'ip ip_address address addr from login client remote host source src origin',
  'dirección desde',
  'ip-adresse adresse von',
  'adresse depuis',
)

export const VERSION_WORDS = words(
  'version versions ver v build release firmware fw update kernel agent',
  'versión actualización',
  'release',
  'mise',
)

export const BIRTH_WORDS = words(
  'born birth birthday dob d.o.b b date_of_birth birth_date birthdate dateofbirth',
  'nacimiento nació nacio nacido nacida nac f.nac fecha_nacimiento',
  'geboren geb geburtsdatum geburtstag geburt',
  'né née ne naissance ddn date_naissance',
)

export const PASSPORT_WORDS = words(
  'passport passport_number passport#',
  'pasaporte',
  'reisepass reisepassnummer pass passnummer pass-nr',
  'passeport',
)

export const NINO_WORDS = words('national insurance nino ni')
export const NHS_WORDS = words('nhs patient health hospital')
export const DNI_WORDS = words('dni nif nie documento identidad')
export const NIR_WORDS = words('sécurité sociale securite nir insee ss sécu secu')
export const TAX_ID_WORDS = words(
  'steuer-id steuerid steuer identifikationsnummer idnr steuernummer steuer-identifikationsnummer tin tax',
)

export const ADDRESS_WORDS = words(
  'address addr ship deliver lives live moved home residence',
  'dirección direccion domicilio envíen enviar vive',
  'anschrift adresse wohnhaft wohne schicken liefern',
  'adresse domicile habite envoyer livrer',
)
