// src/core/crypto/known-answers.test.ts: published vectors through the code paths that seal stored data: NIST CTR, RFC 4231 HMAC, RFC 5297 AES-SIV
import { createCipheriv, createHmac, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createAeadKey, type IvSource, openMany, sealMany } from './aead.ts'
import { sivOpen, sivSeal } from './deterministic.ts'
import { createMac } from './mac.ts'

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex')
const ascii = (text: string) => Buffer.from(text, 'latin1')

/** A key whose IVs are the given ones, in order (one seal call takes as many as it seals). */
function keyWithIvs(enc: Uint8Array, ivs: readonly Uint8Array[], macKey = randomBytes(32)) {
  const queue = [...ivs]
  const source: IvSource = (count) => Buffer.concat(queue.splice(0, count))
  return { key: createAeadKey(1, enc, macKey, source), macKey }
}

/** A v1 value (aead.ts) around a given CTR ciphertext, tagged with node's own HMAC. */
function sealedAround(macKey: Uint8Array, iv: Uint8Array, body: Uint8Array, aad: Uint8Array) {
  const headIv = Buffer.concat([Buffer.from([0x01, 0, 0, 0, 1]), iv])
  const length = Buffer.alloc(8)
  length.writeBigUInt64BE(BigInt(aad.length))
  const tag = createHmac('sha256', macKey).update(Buffer.concat([headIv, length, aad, body]))
  return Buffer.concat([headIv, body, tag.digest().subarray(0, 16)])
}

/** The CTR body of a v1 value: after 0x01 ‖ version ‖ IV, before the 16-byte tag. */
const bodyOf = (sealed: Buffer) => sealed.subarray(21, sealed.length - 16)

describe('AES-256-CTR of aead.ts: NIST SP 800-38A and OpenSSL', () => {
  // SP 800-38A appendix F.5.5 (CTR-AES256.Encrypt) and F.5.6 (CTR-AES256.Decrypt). The counter
  // f0…feff carries into the 15th byte on its second block (…ff00).
  const KEY = hex('603deb1015ca71be2b73aef0857d7781 1f352c073b6108d72d9810a30914dff4')
  const COUNTER = hex('f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff')
  const PLAINTEXT = hex(`6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
    30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710`)
  const CIPHERTEXT = hex(`601ec313775789a5b7a7f504bbf3d228 f443e3ca4d62b59aca84e990cacaf5c5
    2b0930daa23de94ce87017ba2d84988d dfc9c58db67aada613c2dd08457941a6`)
  const aad = Buffer.from('people|ssn')

  it('F.5.5: sealing encrypts to the published ciphertext', () => {
    const { key } = keyWithIvs(KEY, [COUNTER])
    const [sealed] = sealMany(key, [{ plaintext: PLAINTEXT, aad }])
    expect(bodyOf(sealed as Buffer).toString('hex')).toBe(CIPHERTEXT.toString('hex'))
  })

  it('F.5.6: opening decrypts the published ciphertext', () => {
    const { key, macKey } = keyWithIvs(KEY, [])
    const [opened] = openMany(key, [
      { sealed: sealedAround(macKey, COUNTER, CIPHERTEXT, aad), aad },
    ])
    expect((opened as Buffer).toString('hex')).toBe(PLAINTEXT.toString('hex'))
  })

  it('an all-ff counter wraps to zero, as in OpenSSL', () => {
    const allOnes = Buffer.alloc(16, 0xff)
    const { key } = keyWithIvs(KEY, [allOnes])
    const [sealed] = sealMany(key, [{ plaintext: PLAINTEXT, aad }])
    const body = bodyOf(sealed as Buffer)
    expect(body.equals(createCipheriv('aes-256-ctr', KEY, allOnes).update(PLAINTEXT))).toBe(true)
    // The second block's keystream is AES(K, 0^128): the counter wrapped, it did not saturate.
    const zeroBlock = createCipheriv('aes-256-ecb', KEY, null).update(Buffer.alloc(16))
    const stream = Buffer.from(
      body.subarray(16, 32).map((b, i) => b ^ (PLAINTEXT[16 + i] as number)),
    )
    expect(stream.equals(zeroBlock)).toBe(true)
  })

  it('batches of many values with carrying counters equal OpenSSL aes-256-ctr, value by value', () => {
    const enc = randomBytes(32)
    const edges = [
      'ff'.repeat(16),
      `${'00'.repeat(15)}ff`,
      `${'ab'.repeat(14)}ffff`,
      `7f${'ff'.repeat(15)}`,
    ]
    const ivs = Array.from({ length: 400 }, (_, i) =>
      i % 2 === 0 ? hex(edges[(i / 2) % edges.length] as string) : randomBytes(16),
    )
    const items = ivs.map((_, i) => ({
      plaintext: randomBytes((i * 7) % 101),
      aad: Buffer.from(`a${i}`),
    }))
    const { key } = keyWithIvs(enc, ivs)
    const sealed = sealMany(key, items)
    sealed.forEach((value, i) => {
      const expected = createCipheriv('aes-256-ctr', enc, ivs[i] as Buffer).update(
        items[i]?.plaintext as Buffer,
      )
      expect(bodyOf(value).equals(expected), `item ${i}`).toBe(true)
    })
    const opened = openMany(
      key,
      sealed.map((value, i) => ({ sealed: value, aad: items[i]?.aad as Buffer })),
    )
    opened.forEach((plaintext, i) => {
      expect(plaintext.equals(items[i]?.plaintext as Buffer), `item ${i}`).toBe(true)
    })
  })
})

describe('HMAC-SHA256 of mac.ts: RFC 4231', () => {
  const aa131 = 'aa'.repeat(131)
  // RFC 4231 §4.2–4.8: key, data, HMAC-SHA-256 (case 5 is truncated to 128 bits).
  const CASES: readonly [string, Buffer, string][] = [
    [
      '0b'.repeat(20),
      ascii('Hi There'),
      'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    ],
    [
      '4a656665',
      ascii('what do ya want for nothing?'),
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    ],
    [
      'aa'.repeat(20),
      hex('dd'.repeat(50)),
      '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
    ],
    [
      '0102030405060708090a0b0c0d0e0f10111213141516171819',
      hex('cd'.repeat(50)),
      '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
    ],
    ['0c'.repeat(20), ascii('Test With Truncation'), 'a3b6167473100ee06e0c796c2955552b'],
    [
      aa131,
      ascii('Test Using Larger Than Block-Size Key - Hash Key First'),
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
    [
      aa131,
      ascii(
        'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
      ),
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ]

  it.each(CASES.map((c, i) => [i + 1, ...c] as const))('test case %i', (_, key, data, expected) => {
    const mac = createMac(hex(key))
    expect(mac(data).toString('hex').slice(0, expected.length)).toBe(expected)
    // The tag path hashes parts without joining them: every split gives the same MAC.
    for (const cut of [0, 1, data.length >> 1, data.length]) {
      const parts = [data.subarray(0, cut), data.subarray(cut)]
      expect(mac.concat(parts).toString('hex').slice(0, expected.length)).toBe(expected)
    }
    // Strings are hashed as UTF-8, which the ASCII messages share.
    if (data.every((byte) => byte < 0x80))
      expect(mac(data.toString('ascii')).toString('hex').slice(0, expected.length)).toBe(expected)
  })
})

describe('AES-SIV of deterministic.ts: RFC 5297 and published 512-bit-key vectors', () => {
  // [key, associated-data vector, plaintext, V ‖ C]
  type SivCase = readonly [string, readonly string[], string, string]
  const RFC_5297: Record<string, SivCase> = {
    // Appendix A.1, deterministic authenticated encryption.
    'A.1': [
      'fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0 f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff',
      ['101112131415161718191a1b1c1d1e1f2021222324252627'],
      '112233445566778899aabbccddee',
      '85632d07c6e8f37f950acd320a2ecc93 40c02b9690c4dc04daef7f6afe5c',
    ],
    // Appendix A.2, nonce-based: the nonce is the last associated-data component.
    'A.2': [
      '7f7e7d7c7b7a79787776757473727170 404142434445464748494a4b4c4d4e4f',
      [
        '00112233445566778899aabbccddeeffdeaddadadeaddadaffeeddccbbaa99887766554433221100',
        '102030405060708090a0',
        '09f911029d74e35bd84156c5635688c0',
      ],
      '7468697320697320736f6d6520706c61696e7465787420746f20656e6372797074207573696e67205349562d414553',
      `7bdb6e3b432667eb06f4d14bff2fbd0f cb900f2fddbe404326601965c889bf17 dba77ceb094fa663b7a3f748ba8af829
       ea64ad544a272e9c485b62a3fd5c0d`,
    ],
  }
  // The project's key size (64 bytes, AEAD_AES_SIV_CMAC_512), where RFC 5297 has no vectors:
  // Wycheproof (C2SP/wycheproof testvectors/aes_siv_cmac_test.json, by tcId; one AD component)
  // and Nettle's testsuite (siv-cmac-test.c, from github.com/dchest/siv; AD then nonce).
  const K512 =
    '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f'
  const SIV_512: Record<string, SivCase> = {
    'wycheproof 305': [
      'e2c5662bb18fbb411d0304e4241db073fe60a4704fee290073513038a22b4cd542580b2b4edbc37e3de01c0cb61abcad46986cdc491ce9e5ae5af223ff58b953',
      ['fab912dec29a34aabfaef176'],
      '0d',
      '1c6969ecb15741a9959b7a8492250e391a',
    ],
    'wycheproof 320': [
      '139383f3f82dc78e0b380027f9e5fcd2ed23716404be5c554452e4dc73d237026594491820c6b8297185cc1fa84f49a5c7d7cd05c5de090ff1c3397bc2740437',
      ['d39da73ffc03ad0a9213ffc7'],
      '48604944a80fadf50d55b87727934458c8',
      'a9cf73951cb39823777f35c96c845169476e2ec2317cb6b8dd8b6172fdceabff9d',
    ],
    'wycheproof 324': [
      '72a76714e0171e8213de624f00e273bc900050e69d25c454cc42b61e8b3fbc92d4942e1ae14421e164046c1479a7b9c9f4b50b382cb62dfeaa210b98dec7d937',
      ['6a8aaf2c84003e0e6f409658'],
      '92d8f4dc7d41e8b180d66e8994022db79249cdc76fd7f3ea12d9925b51925250cd75a15fcfd78ea85c57fe6196f8d7545086f99ea796a0ea69170db9944200435d9d3d551943892400ce787f703c1105',
      '69f720f36b0da86ec8cc0f46d62835dcb35ac23f5b891152d861c4e0f0018f19d272ee8b12d83300bfd46aeec0124d5d23b3cb849c1cab1fdf64b70947ebf79f5442e209076dfa9a3f36ab0a6d3cf4a75ddfcdc21837743b20885db4c803ac27',
    ],
    // Edge-case SIVs: the CTR counter derived from V must not overflow into the cleared bits.
    'wycheproof 325': [
      K512,
      [''],
      '8dbfee9580e7e2bc66100a674497f4e1',
      '000000000000000000000000000000007ef8aa7e4dd49d9cfa09e9cb574fd90d',
    ],
    'wycheproof 327': [
      K512,
      [''],
      '72543a9a07a3c18a280060653432c05c',
      'ffffffffffffffffffffffffffffffff3db09cc48f2780859351901d1014ae06',
    ],
    'wycheproof 329': [
      K512,
      [''],
      'ff4d7cdeb8f3c4e37a05a91ee26e2a84',
      'ffffffffffffffffffffffff7fffffffb0a9da80307785ecc1545966c64844de',
    ],
    'wycheproof 331': [
      K512,
      [''],
      '6eb52fc95a5185a3bd2a30d3058414ab',
      'ffffffffffffffff7fffffffffffffff21518997d2d5c4ac067bc0ab21a27af1',
    ],
    'wycheproof 334': [
      K512,
      ['000102030405060708090a0b0c0d0e0f'],
      '23525ec6dfb28c323340d09538b4b015',
      'fffffffffffffffffffffffffffffffe1d9a0bf851a0dca6bd0b74fecebf654a',
    ],
    'nettle 512, AD and nonce': [
      'c27df2fdaec35d4a2a412a50c3e8c47d2d568e91a38e54148abdc0b6e86caf87695c0a8adf4c5f8eb2c6c8b136529864f3b84b3ae8e3676ce760c461f3a13e83',
      ['00112233445566778899aabbccddeeffdeaddadadeaddadaffeeddccbbaa99887766554433221100', '02'],
      '7468697320697320736f6d6520706c61696e7465787420746f20656e6372797074207573696e67205349562d414553',
      `bbe4751a549d2fce410c2efde0df4d131a6eac0d030028f8dc16b6c43a557d4e3e846ad752c5a030c75a85ff8b07ff10
       71b133f5edac3c608bb6eb13dd1fd9`,
    ],
  }

  it.each(Object.entries({ ...RFC_5297, ...SIV_512 }))('%s', (_, [key, ad, plaintext, output]) => {
    const vector = ad.map(hex)
    expect(Buffer.from(sivSeal(hex(key), vector, hex(plaintext))).toString('hex')).toBe(
      hex(output).toString('hex'),
    )
    expect(sivOpen(hex(key), vector, hex(output)).toString('hex')).toBe(
      hex(plaintext).toString('hex'),
    )
  })

  it('refuses Wycheproof tcId 335 and 336 (a flipped tag bit)', () => {
    expect(() => sivOpen(hex(K512), [hex('')], hex('6ef5b8ef53fc365606cd3ea047374885'))).toThrow(
      'authentication failed',
    )
    expect(() =>
      sivOpen(hex(K512), [hex('')], hex('202e4a8f8b4c66788f3af230fb1c3ada5ead70c7f066d4df')),
    ).toThrow('authentication failed')
  })
})
