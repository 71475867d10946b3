// test/helpers/browser.ts: Debian's headless Chromium through playwright-core, for tests of served pages
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

const CHROMIUM = '/usr/bin/chromium'

/** Flags that keep Chromium from reaching anything but the page under test. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Whether browser tests run here. Off CI a missing Chromium skips them (with the reason printed);
 * on CI (.ci/run installs it) they always run, so a missing browser fails them.
 */
export function hasBrowser(): boolean {
  if (existsSync(CHROMIUM) || process.env.CI) return true
  console.warn(
    `Skipping browser tests: ${CHROMIUM} is missing (apt-get install -y chromium); CI runs them.`,
  )
  return false
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS })
}
