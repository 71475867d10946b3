// src/core/data-types/url.test.ts: URL validation and normalization
import { describe, expect, it } from 'vitest'
import { checkUrl } from './url.ts'

const value = (text: string) => {
  const result = checkUrl(text)
  return result.isValid ? result.value : undefined
}

describe('URL type', () => {
  it('lower-cases scheme and host and removes the default port', () => {
    expect(value('HTTPS://Example.COM:443/Path?Q=1')).toBe('https://example.com/Path?Q=1')
    expect(value('http://Example.com:8080/')).toBe('http://example.com:8080/')
    expect(value('http://example.com:80')).toBe('http://example.com')
    expect(value('MAILTO:Someone@Example.com')).toBe('mailto:Someone@Example.com')
  })

  it('accepts host-relative URLs', () => {
    expect(value('Example.com/path')).toBe('example.com/path')
    expect(value('localhost:8080/x')).toBe('localhost:8080/x')
    expect(value('www.example.co.uk')).toBe('www.example.co.uk')
  })

  it('refuses text that is not a URL', () => {
    for (const bad of ['', 'not a url', 'justaword', 'http://', '/relative/path', 'ht tp://x.com'])
      expect(value(bad), bad).toBeUndefined()
  })
})
