// src/http/routes/analysis.ts: HTTP binding for PII analysis (endpoints §9): contains (alias detect), locate, protect, reveal
import {
  AnalysisBody,
  ContainsResult,
  LocateResult,
  ProtectBody,
  ProtectQuery,
  ProtectResult,
  RevealBody,
  RevealQuery,
  RevealResult,
} from '../../contract/analysis.ts'
import { DataQuery } from '../../contract/common.ts'
import { audited } from '../audited.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/data/analysis'
const tags = ['analysis']

const CONTAINS = {
  summary: 'Tell which texts contain PII',
  description:
    'Runs the local detector (nothing leaves the service) over each text and answers, per text, whether it holds PII and which entity types with their best score (0.5 and above).',
}

export const analysisRoutes: RoutesPlugin = async (app, { services }) => {
  const { analysis } = services

  for (const [path, operationId] of [
    ['contains', 'analysis.containsPii'],
    ['detect', 'analysis.detectPii'],
  ] as const) {
    app.post(
      `${BASE}/${path}`,
      {
        config: { operation: 'analysis_contains' },
        schema: {
          operationId,
          ...CONTAINS,
          tags,
          querystring: DataQuery,
          body: AnalysisBody,
          response: { 200: ContainsResult },
        },
      },
      (req) => analysis.contains(req.ctx, req.body),
    )
  }

  app.post(
    `${BASE}/locate`,
    {
      config: { operation: 'analysis_locate' },
      schema: {
        operationId: 'analysis.locatePii',
        summary: 'Locate PII in texts',
        description:
          'Answers, per text, each entity found: its type, score and UTF-16 offsets (end exclusive).',
        tags,
        querystring: DataQuery,
        body: AnalysisBody,
        response: { 200: LocateResult },
      },
    },
    (req) => analysis.locate(req.ctx, req.body),
  )

  app.post(
    `${BASE}/protect`,
    {
      config: { operation: 'analysis_protect' },
      schema: {
        operationId: 'analysis.protectText',
        summary: 'Replace PII in texts with vault tokens',
        description:
          'Finds PII as locate does and replaces each span with [[TYPE:token_id]], the token made by the normal tokenize path in the collection (equal values give equal tokens). Spans without a property, or whose value the property refuses, are left and reported in skipped.',
        tags,
        querystring: ProtectQuery,
        body: ProtectBody,
        response: { 200: ProtectResult },
      },
    },
    (req) =>
      analysis.protect(req.ctx, req.body, {
        collection: req.query.collection,
        tokenType: req.query.token_type,
      }),
  )

  app.post(
    `${BASE}/reveal`,
    {
      config: { operation: 'analysis_reveal' },
      schema: {
        operationId: 'analysis.revealText',
        summary: 'Put values back in protected texts',
        description:
          'Replaces each [[TYPE:token_id]] marker the caller may detokenize with its value, or with a transformation of it; markers the caller may not reveal stay. Audited like detokenize.',
        tags,
        querystring: RevealQuery,
        body: RevealBody,
        response: { 200: RevealResult },
      },
    },
    async (req) => audited(await analysis.reveal(req.ctx, req.body, req.query.collection)),
  )
}
