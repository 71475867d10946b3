// src/contract/analysis.ts: wire shapes of PII analysis: contains, locate, protect, reveal (endpoints §9)
import type { Static } from 'typebox'
import { DataQuery } from './common.ts'
import { Type } from './schema.ts'

/**
 * The texts to analyse; `language` is `en`, `es`, `de` or `fr` (absent: detected per text).
 * @example { "language": "en", "text": ["Call me on +44 20 7946 0958"] }
 */
export const AnalysisBody = Type.Object({
  language: Type.Optional(Type.String()),
  text: Type.Array(Type.String()),
})
export type AnalysisBody = Static<typeof AnalysisBody>

/** An entity type found in a text and the highest score it was found with. @example { "type": "PHONE", "score": 0.85 } */
export const PiiLabel = Type.Object({ type: Type.String(), score: Type.Number() })

/** One result per input string. @example { "pii": true, "labels": [{ "type": "EMAIL", "score": 0.9 }] } */
export const ContainsResult = Type.Array(
  Type.Object({ pii: Type.Boolean(), labels: Type.Array(PiiLabel) }),
)
export type ContainsResult = Static<typeof ContainsResult>

/** A found entity: UTF-16 code-unit offsets into the input string, end exclusive. */
export const PiiEntity = Type.Object({
  type: Type.String(),
  score: Type.Number(),
  begin_offset: Type.Integer(),
  end_offset: Type.Integer(),
})

/** @example { "detections": [{ "text": "Mail jo@example.org", "entities": [{ "type": "EMAIL", "score": 0.9, "begin_offset": 5, "end_offset": 19 }] }] } */
export const LocateResult = Type.Object({
  detections: Type.Array(Type.Object({ text: Type.String(), entities: Type.Array(PiiEntity) })),
})
export type LocateResult = Static<typeof LocateResult>

/** @example ?reason=AppFunctionality&collection=support_pii&token_type=deterministic */
export const ProtectQuery = Type.Object({
  ...DataQuery.properties,
  collection: Type.String(),
  token_type: Type.Optional(Type.Union([Type.Literal('deterministic'), Type.Literal('pci')])),
})
export type ProtectQuery = Static<typeof ProtectQuery>

/**
 * `types` limits what is replaced; `props` names the property that stores each entity type
 * (else the collection's property whose data type fits it).
 * @example { "text": ["Mail jo@example.org"], "types": ["EMAIL"], "props": { "EMAIL": "email" } }
 */
export const ProtectBody = Type.Object({
  language: Type.Optional(Type.String()),
  text: Type.Array(Type.String()),
  types: Type.Optional(Type.Array(Type.String())),
  props: Type.Optional(Type.Record(Type.String(), Type.String())),
})
export type ProtectBody = Static<typeof ProtectBody>

/** Offsets are into the input string. */
export const ProtectResult = Type.Array(
  Type.Object({
    text: Type.String(),
    replacements: Type.Array(
      Type.Object({
        type: Type.String(),
        property: Type.String(),
        token_id: Type.String(),
        begin_offset: Type.Integer(),
        end_offset: Type.Integer(),
      }),
    ),
    skipped: Type.Array(
      Type.Object({
        type: Type.String(),
        begin_offset: Type.Integer(),
        end_offset: Type.Integer(),
        reason: Type.String(),
      }),
    ),
  }),
)
export type ProtectResult = Static<typeof ProtectResult>

export const RevealQuery = Type.Object({ ...DataQuery.properties, collection: Type.String() })
export type RevealQuery = Static<typeof RevealQuery>

/**
 * `transformations` reveals an entity type through a transformer: `<property>.<transformer>`, or a
 * transformer name of the property that holds the type.
 * @example { "text": ["Mail [[EMAIL:8c1d…]]"], "transformations": { "EMAIL": "email.mask" } }
 */
export const RevealBody = Type.Object({
  text: Type.Array(Type.String()),
  transformations: Type.Optional(Type.Record(Type.String(), Type.String())),
})
export type RevealBody = Static<typeof RevealBody>

/** @example [{ "text": "Mail j*@example.org", "revealed": 1, "withheld": 0 }] */
export const RevealResult = Type.Array(
  Type.Object({ text: Type.String(), revealed: Type.Integer(), withheld: Type.Integer() }),
)
export type RevealResult = Static<typeof RevealResult>
