// test/helpers/config.ts: loadConfig in dev and server mode without config files, and the problems it reports
import { ConfigError, type Env, loadConfig } from '../../src/config.ts'

export const dev = (env: Env = {}) => loadConfig(env, { devmode: true, files: false })

/** The least a server-mode start needs: a local KMS and some TLS. */
export const SERVER_ENV = {
  SVC_KMS_ALLOW_LOCAL: 'true',
  SVC_KMS_SEED: 'seed',
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
