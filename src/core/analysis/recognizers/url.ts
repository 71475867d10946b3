// src/core/analysis/recognizers/url.ts: URLs that carry personal data: a person's profile, an e-mail, a user's page
import type { Detection } from '../detector.ts'
import { eachMatch, type Recognizer } from '../recognizer.ts'
import { isRoleMailbox } from './email.ts'

const CANDIDATE = /\b(?:https?:\/\/|www\.)[^\s<>"'`{}|\\^]{3,2048}/gi
// Profile hosts are often written without a scheme: `linkedin.com/in/jane-doe`.
const BARE_PROFILE =
  /(?<![\w./@-])(?:[a-z]{2,3}\.)?(?:linkedin|facebook|twitter|instagram|github|gitlab|tiktok|xing)\.com\/[^\s<>"'`{}|\\^]{2,200}/gi
const TRAILING = /[.,;:!?)\]]+$/

/** Hosts where a one-segment path (or /in/<slug>) is a person's page. */
const PROFILE_HOSTS = new Set([
  'linkedin.com',
  'facebook.com',
  'fb.com',
  'twitter.com',
  'x.com',
  'instagram.com',
  'github.com',
  'gitlab.com',
  'tiktok.com',
  'youtube.com',
  'medium.com',
  'xing.com',
  'vk.com',
  'threads.net',
  'pinterest.com',
  'reddit.com',
  'snapchat.com',
  'about.me',
  'behance.net',
  'dribbble.com',
])
const NOT_PEOPLE = new Set([
  'about',
  'help',
  'login',
  'signup',
  'search',
  'explore',
  'settings',
  'privacy',
  'terms',
  'home',
  'pages',
  'groups',
  'events',
  'company',
  'jobs',
  'features',
  'pricing',
  'docs',
  'blog',
  'watch',
  'marketplace',
  'topics',
  'orgs',
  'organizations',
  'share',
  'sharer',
  'intent',
  'hashtag',
  'r',
])
const PERSONAL_KEYS =
  /[?&](?:e-?mail|mail|user(?:name)?|name|first_?name|last_?name|phone|tel|login)=/i
const USER_PATH = /\/(?:users?|people|profiles?|members?|u|~)\/[^/?#]+/i

function host(url: string): string {
  const withoutScheme = url.replace(/^https?:\/\//i, '')
  return (withoutScheme.split(/[/?#:]/)[0] ?? '')
    .toLowerCase()
    .replace(/^(?:www\.|m\.|[a-z]{2}\.)/, '')
}

function hasEmail(url: string): boolean {
  let decoded = url
  try {
    decoded = decodeURIComponent(url)
  } catch {
    // A malformed escape leaves the text as it is.
  }
  const at = decoded.indexOf('@')
  if (at < 1) return false
  const local =
    decoded
      .slice(0, at)
      .split(/[=/:&?]/)
      .pop() ?? ''
  return local.length > 0 && !isRoleMailbox(local) && /\.[a-z]{2,}/i.test(decoded.slice(at))
}

export function isPersonalUrl(url: string): boolean {
  if (hasEmail(url) || PERSONAL_KEYS.test(url)) return true
  const path = url.replace(/^https?:\/\//i, '').replace(/^[^/?#]+/, '')
  const segments = path.split(/[?#]/)[0]?.split('/').filter(Boolean) ?? []
  if (PROFILE_HOSTS.has(host(url))) {
    const [first, second] = segments
    if (first === 'in' || first === 'pub' || first === 'profile') return second !== undefined
    return segments.length === 1 && first !== undefined && !NOT_PEOPLE.has(first.toLowerCase())
  }
  return USER_PATH.test(path)
}

function accept(match: RegExpExecArray): Detection | undefined {
  const value = match[0].replace(TRAILING, '')
  if (!isPersonalUrl(value)) return undefined
  return { type: 'URL', begin: match.index, end: match.index + value.length, score: 0.8 }
}

export const recognizeUrls: Recognizer = ({ text }) => [
  ...eachMatch(CANDIDATE, text, accept),
  ...(text.includes('.com/') ? eachMatch(BARE_PROFILE, text, accept) : []),
]
