// src/core/analysis/analysis.ts: the analysis service: contains, locate, protect and reveal (endpoints §9)
import type {
  ContainsResult,
  LocateResult,
  ProtectResult,
  RevealResult,
} from '../../contract/analysis.ts'
import type { Audited } from '../audit/details.ts'
import type { CollectionsService } from '../collections/collections.ts'
import type { RequestContext } from '../context.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import type { TokensService } from '../tokens/tokens.ts'
import type { Detection, Detector, Language } from './detector.ts'
import type { EntityType } from './entity-types.ts'
import { checkTexts, entityTypeOf, languageOf } from './limits.ts'
import { protect, type TokenType } from './protect.ts'
import { reveal } from './reveal.ts'

export type AnalysisDeps = Readonly<{
  detector: Detector
  collections: Pick<CollectionsService, 'getCachedOrThrow'>
  types: Pick<TypeRegistry, 'validate'>
  tokens: Pick<TokensService, 'tokenize' | 'detokenize'>
  /** SVC_FEATURES_ANALYSIS. */
  isEnabled: boolean
}>

type Texts = Readonly<{ language?: string; text: readonly string[] }>

/** Detections at or above this score are reported (the calibration point of the scores). */
export const REPORT_THRESHOLD = 0.5
/** After this much detection work in one call, the next text waits for a turn of the event loop. */
const SLICE_MS = 20

const round = (score: number) => Math.round(score * 1000) / 1000
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

function typesMap<T>(
  record: Readonly<Record<string, T>> | undefined,
  field: string,
): Map<EntityType, T> {
  return new Map(
    Object.entries(record ?? {}).map(([name, value]) => [entityTypeOf(name, field), value]),
  )
}

export function createAnalysisService(deps: AnalysisDeps) {
  function checkEnabled(): void {
    if (!deps.isEnabled)
      throw new VaultError('featureDisabled', {
        message: 'PII analysis is disabled on this service (SVC_FEATURES_ANALYSIS=false).',
        context: { feature: 'analysis' },
      })
  }

  /** The checks of every analysis call, before anything is looked up (400 before 404, errors.md). */
  function accept(body: Texts): Language | undefined {
    checkEnabled()
    checkTexts(body.text)
    return languageOf(body.language)
  }

  /** Runs the detector text by text, yielding between slices of work. */
  async function detectAll(
    ctx: RequestContext,
    texts: readonly string[],
    language: Language | undefined,
  ): Promise<Detection[][]> {
    const found: Detection[][] = []
    let sliceStart = performance.now()
    for (const text of texts) {
      ctx.signal.throwIfAborted()
      const detections = await deps.detector.detect(text, { language, signal: ctx.signal })
      found.push(detections.filter((d) => d.score >= REPORT_THRESHOLD))
      if (performance.now() - sliceStart > SLICE_MS) {
        await nextTurn()
        sliceStart = performance.now()
      }
    }
    return found
  }

  async function contains(ctx: RequestContext, body: Texts): Promise<ContainsResult> {
    const found = await detectAll(ctx, body.text, accept(body))
    return found.map((detections) => {
      const best = new Map<string, number>()
      for (const d of detections) best.set(d.type, Math.max(best.get(d.type) ?? 0, d.score))
      const labels = [...best].map(([type, score]) => ({ type, score: round(score) }))
      return { pii: labels.length > 0, labels }
    })
  }

  async function locate(ctx: RequestContext, body: Texts): Promise<LocateResult> {
    const found = await detectAll(ctx, body.text, accept(body))
    return {
      detections: body.text.map((text, i) => ({
        text,
        entities: (found[i] ?? []).map((d) => ({
          type: d.type,
          score: round(d.score),
          begin_offset: d.begin,
          end_offset: d.end,
        })),
      })),
    }
  }

  async function protectTexts(
    ctx: RequestContext,
    body: Texts & Readonly<{ types?: readonly string[]; props?: Readonly<Record<string, string>> }>,
    options: Readonly<{ collection: string; tokenType: TokenType | undefined }>,
  ): Promise<ProtectResult> {
    const language = accept(body)
    const types =
      body.types === undefined
        ? undefined
        : new Set(body.types.map((t) => entityTypeOf(t, 'types')))
    const props = typesMap(body.props, 'props')
    const collection = deps.collections.getCachedOrThrow(options.collection)
    const found = await detectAll(ctx, body.text, language)
    return protect(
      deps,
      ctx,
      { texts: body.text, found, collection },
      {
        tokenType: options.tokenType ?? 'deterministic',
        types,
        props,
      },
    )
  }

  async function revealTexts(
    ctx: RequestContext,
    body: Readonly<{ text: readonly string[]; transformations?: Readonly<Record<string, string>> }>,
    collectionName: string,
  ): Promise<Audited<RevealResult>> {
    checkEnabled()
    checkTexts(body.text)
    const transformations = typesMap(body.transformations, 'transformations')
    const collection = deps.collections.getCachedOrThrow(collectionName)
    return reveal(deps.tokens, ctx, { texts: body.text, collection }, transformations)
  }

  return { contains, locate, protect: protectTexts, reveal: revealTexts }
}

export type AnalysisService = ReturnType<typeof createAnalysisService>
