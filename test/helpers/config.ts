// test/helpers/config.ts: loadConfig in dev and server mode without config files, and the problems it reports
import { ConfigError, type Env, loadConfig } from '../../src/config.ts'

export const dev = (env: Env = {}) => loadConfig(env, { devmode: true, files: false })

/** Server mode refuses the dev Admin key and KMS seeds shorter than 32 characters. */
export const SERVER_SECRETS = {
  SVC_SERVICE_ADMIN_API_KEY: 'Test-admin-key-0123456789',
  SVC_KMS_SEED: 'test-seed-of-thirty-two-characters!',
}

/** The least a server-mode start needs: a local KMS, an Admin key and some TLS. */
export const SERVER_ENV = {
  ...SERVER_SECRETS,
  SVC_KMS_ALLOW_LOCAL: 'true',
  SVC_TLS_SELFSIGNED: 'true',
}
export const server = (env: Env = {}) => loadConfig({ ...SERVER_ENV, ...env }, { files: false })

/** The problems of the ConfigError `load` throws (it must throw one). */
export function problemsOf(load: () => unknown): readonly string[] {
  try {
    load()
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  throw new Error('expected a ConfigError')
}
