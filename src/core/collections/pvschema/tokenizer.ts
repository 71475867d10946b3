// src/core/collections/pvschema/tokenizer.ts: splits PVSchema text into words, quoted strings and punctuation, with positions
import { VaultError } from '../../errors.ts'

export type TokenKind = 'word' | 'string' | '(' | ')' | ',' | ';' | 'end'

/** `text` is the word, or a string's content with doubled quotes undone. Positions are 1-based. */
export type Token = Readonly<{ kind: TokenKind; text: string; line: number; column: number }>

export type Position = Readonly<{ line: number; column: number }>

/** 400 ERR1012 saying where the text went wrong; the text itself is never echoed. */
export function syntaxError(at: Position, problem: string): VaultError {
  return new VaultError('invalidRequest', {
    message: `The PVSchema text is invalid at line ${at.line}, column ${at.column}: ${problem}.`,
    context: { line: String(at.line), column: String(at.column) },
  })
}

const PUNCTUATION: ReadonlySet<string> = new Set(['(', ')', ',', ';'])
const isWordChar = (c: string) => /^[A-Za-z0-9_]$/.test(c)
const isSpace = (c: string) => /^\s$/u.test(c)

/**
 * A cursor over the code points of the text that tracks line and column. Kept as a closure, so
 * the tokenizer below stays a plain loop over its `peek`/`take`.
 */
function scanner(source: string) {
  const chars = Array.from(source)
  let index = 0
  let line = 1
  let column = 1
  return {
    peek: (ahead = 0): string | undefined => chars[index + ahead],
    position: (): Position => ({ line, column }),
    take(): string {
      const c = chars[index++] ?? ''
      if (c === '\n') {
        line++
        column = 1
      } else column++
      return c
    },
  }
}

type Scanner = ReturnType<typeof scanner>

/** `'…'` or `"…"`; the quote character inside is written twice. Strings may span lines. */
function readString(scan: Scanner): string {
  const start = scan.position()
  const quote = scan.take()
  let text = ''
  for (;;) {
    const c = scan.peek()
    if (c === undefined) throw syntaxError(start, 'a quoted string is not closed')
    scan.take()
    if (c !== quote) text += c
    else if (scan.peek() === quote) text += scan.take()
    else return text
  }
}

function skipComment(scan: Scanner): void {
  while (scan.peek() !== undefined && scan.peek() !== '\n') scan.take()
}

function describeCharacter(c: string): string {
  const code = c.codePointAt(0) ?? 0
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).padStart(4, '0')}` : `'${c}'`
}

/** The tokens of `source`, ending with one `end` token. Blank space and `--` comments are dropped. */
export function tokenize(source: string): Token[] {
  const scan = scanner(source)
  const tokens: Token[] = []
  for (let c = scan.peek(); c !== undefined; c = scan.peek()) {
    const at = scan.position()
    if (isSpace(c)) scan.take()
    else if (c === '-' && scan.peek(1) === '-') skipComment(scan)
    else if (c === "'" || c === '"') tokens.push({ kind: 'string', text: readString(scan), ...at })
    else if (PUNCTUATION.has(c)) tokens.push({ kind: c as TokenKind, text: scan.take(), ...at })
    else if (isWordChar(c)) {
      let text = ''
      while (isWordChar(scan.peek() ?? '')) text += scan.take()
      tokens.push({ kind: 'word', text, ...at })
    } else throw syntaxError(at, `unexpected character ${describeCharacter(c)}`)
  }
  tokens.push({ kind: 'end', text: '', ...scan.position() })
  return tokens
}
