// src/core/objects/reading.ts: get, list, search and count objects
import { propertyChecks } from '../access/checks.ts'
import {
  type AuditDetails,
  type Audited,
  NO_DETAILS,
  touchedDetails,
  withFailureDetails,
  withObjectIds,
  withProperties,
} from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { invalidRequest, notInMemoryMode } from '../errors.ts'
import { collectionResource } from '../iam/policy.ts'
import { assertTenantAllowed, effectiveTenants, isTenantAllowed } from '../iam/tenants.ts'
import { queryFingerprint } from '../paging/cursor.ts'
import { pageRequest, pageSizeOf } from '../paging/pages.ts'
import { exportValues } from '../values/export.ts'
import type { ObjectsDeps } from './deps.ts'
import { objectsNotFound } from './errors.ts'
import { readObjectId } from './ids.ts'
import { drainSubstring } from './like.ts'
import { type Page, readPage, readScannedPage, readVerifiedPage, type Verify } from './paging.ts'
import { planRead, type ReadPlan, type ReadRequest, readChecks } from './read.ts'
import { isActive } from './records.ts'
import { renderObjects } from './render.ts'
import { valueChecks, verifierOf } from './scan.ts'
import { type ObjectsQuery, planSearch, withCustomQueryValues } from './search.ts'
import type { ObjectFilter, ObjectRecord, SearchCondition } from './store.ts'

type Fields = Record<string, unknown>

export type ObjectsPage = Readonly<{ results: Fields[]; remaining: number; cursor: string }>

export type PageParams = Readonly<{ pageSize?: string; cursor?: string }>

export type ListRequest = ReadRequest &
  PageParams &
  Readonly<{ ids: readonly string[] | undefined; isExport: boolean }>

/** A planned read and what it touched so far (the collection and the properties it returns). */
type Read = Readonly<{ collection: StoredCollection; plan: ReadPlan; audit: AuditDetails }>

export function createReading(deps: ObjectsDeps) {
  const { settings } = deps

  function prepare(name: string, request: ReadRequest): Read {
    const collection = deps.collections.getCachedOrThrow(name)
    const plan = planRead(collection, request, deps.types)
    const names = plan.items.map((i) => i.property.name)
    return { collection, plan, audit: touchedDetails(NO_DETAILS, collection, names) }
  }

  function filterOf(
    ctx: RequestContext,
    collection: StoredCollection,
    plan: ReadPlan,
  ): ObjectFilter {
    const state = plan.isArchived ? 'archived' : 'active'
    return { collection: collection.name, state, now: ctx.now, tenantIds: effectiveTenants(ctx) }
  }

  /** The rows' values as the read asked, its details naming the objects. */
  async function render(
    ctx: RequestContext,
    read: Read,
    rows: readonly ObjectRecord[],
  ): Promise<Audited<Fields[]>> {
    const audit = withObjectIds(
      read.audit,
      rows.map((r) => r.id),
    )
    return withFailureDetails(audit, async () => ({
      value: await renderObjects(ctx, deps, read.collection, rows, read.plan),
      audit,
    }))
  }

  /** §3.3: 404 ERR3005 unless the object exists in the selected state; other tenants' are 403. */
  async function get(
    ctx: RequestContext,
    name: string,
    rawId: string,
    request: ReadRequest,
  ): Promise<Audited<Fields>> {
    const read = prepare(name, request)
    return withFailureDetails(read.audit, async () => {
      const id = readObjectId(rawId)
      const [row] = await deps.store.objects.get(name, [id])
      if (row === undefined || isActive(row, ctx.now) === read.plan.isArchived)
        throw objectsNotFound([id])
      deps.iam.checkPolicies(ctx, readChecks(read.collection, read.plan))
      assertTenantAllowed(ctx, row.tenantId)
      const { value, audit } = await render(ctx, read, [row])
      return { value: value[0] as Fields, audit }
    })
  }

  /** `ids`: no paging, results in the order asked; unknown ones (or other tenants') are 404. */
  async function byIds(ctx: RequestContext, read: Read, given: readonly string[]) {
    if (given.length > settings.maxPageSize)
      throw invalidRequest(`At most ${settings.maxPageSize} ids may be listed.`, 'ids')
    const ids = [...new Set(given.map(readObjectId))]
    const rows = new Map(
      (await deps.store.objects.get(read.collection.name, ids)).map((r) => [r.id, r]),
    )
    const visible = (row: ObjectRecord | undefined): row is ObjectRecord =>
      row !== undefined &&
      isActive(row, ctx.now) !== read.plan.isArchived &&
      isTenantAllowed(ctx, row.tenantId)
    const missing = ids.filter((id) => !visible(rows.get(id)))
    if (missing.length > 0) throw objectsNotFound(missing)
    deps.iam.checkPolicies(ctx, readChecks(read.collection, read.plan))
    return ids.map((id) => rows.get(id) as ObjectRecord)
  }

  async function finish(
    ctx: RequestContext,
    read: Read,
    page: Page,
    isExport = false,
  ): Promise<Audited<ObjectsPage>> {
    const { value: rendered, audit } = await render(ctx, read, page.records)
    return withFailureDetails(audit, async () => {
      const results = isExport ? await exportValues(deps.exportKeys, rendered) : rendered
      return { value: { results, remaining: page.remaining, cursor: page.cursor }, audit }
    })
  }

  /** §3.4: one page in creation order, or the objects named by `ids`; `export` seals every value. */
  async function list(
    ctx: RequestContext,
    name: string,
    request: ListRequest,
  ): Promise<Audited<ObjectsPage>> {
    const read = prepare(name, request)
    return withFailureDetails(read.audit, async () => {
      if (request.isExport && deps.store.isMemory) throw notInMemoryMode('Exporting objects')
      if (request.ids !== undefined && request.ids.length > 0) {
        const rows = await byIds(ctx, read, request.ids)
        return finish(ctx, read, { records: rows, remaining: 0, cursor: '' }, request.isExport)
      }
      deps.iam.checkPolicies(ctx, readChecks(read.collection, read.plan))
      const filter = filterOf(ctx, read.collection, read.plan)
      const fingerprint = queryFingerprint([
        'list',
        filter.collection,
        filter.state,
        filter.tenantIds,
        request.props,
        request.options,
        request.isExport,
      ])
      const page = await readPage(
        pageQuery(filter, []),
        pageRequest(request, settings, fingerprint),
      )
      return finish(ctx, read, page, request.isExport)
    })
  }

  function pageQuery(filter: ObjectFilter, conditions: readonly SearchCondition[]) {
    return {
      repo: deps.store.objects,
      filter,
      conditions,
      maxRemainingCount: settings.maxRemainingCount,
    }
  }

  /**
   * §3.5: `match`, `in` and `like` ANDed; a query that selects by `id` is not paged. Equality on
   * an encrypted property without a blind index scans the objects the other conditions select.
   */
  async function search(
    ctx: RequestContext,
    name: string,
    query: ObjectsQuery,
    request: ReadRequest & PageParams,
  ): Promise<Audited<ObjectsPage>> {
    const prepared = prepare(name, request)
    return withFailureDetails(prepared.audit, async () => {
      const normalized = await withCustomQueryValues(ctx, deps, prepared.collection, query)
      const plan = planSearch(prepared.collection, normalized, deps)
      const read = { ...prepared, audit: withProperties(prepared.audit, plan.searched) }
      return withFailureDetails(read.audit, () =>
        searchPlanned(ctx, read, { query, request, plan }),
      )
    })
  }

  async function searchPlanned(
    ctx: RequestContext,
    read: Read,
    search: Readonly<{
      query: ObjectsQuery
      request: ReadRequest & PageParams
      plan: ReturnType<typeof planSearch>
    }>,
  ): Promise<Audited<ObjectsPage>> {
    const { query, request, plan } = search
    const searched = propertyChecks(read.collection, plan.searched, 'search', read.plan.isArchived)
    deps.iam.checkPolicies(ctx, [...readChecks(read.collection, read.plan), ...searched])
    // An id query is not paged, yet an out-of-range page_size is still a bad request.
    pageSizeOf(request.pageSize, settings)
    if (plan.likes.length > 0) await drainSubstring(deps, read.collection)
    const filter = filterOf(ctx, read.collection, read.plan)
    const checks = valueChecks(deps, plan.likes, plan.scans)
    const verify = checks.properties.length > 0 ? verifierOf(checks, ctx.signal) : undefined
    const paging = pageQuery(filter, plan.conditions)
    if (plan.selectsIds) return finish(ctx, read, await byIdQuery(paging, verify))
    const fingerprint = queryFingerprint([
      'search',
      filter.collection,
      filter.state,
      filter.tenantIds,
      query,
      request.props,
      request.options,
    ])
    const pageReq = pageRequest(request, settings, fingerprint)
    const page =
      verify === undefined
        ? await readPage(paging, pageReq)
        : plan.scans.length > 0
          ? await readScannedPage(paging, pageReq, checks, ctx.signal)
          : await readVerifiedPage(paging, pageReq, verify)
    return finish(ctx, read, page)
  }

  async function byIdQuery(
    paging: ReturnType<typeof pageQuery>,
    verify: Verify | undefined,
  ): Promise<Page> {
    const ids = paging.conditions.find((c) => c.kind === 'ids')
    if (ids?.kind === 'ids' && new Set(ids.ids).size > settings.maxPageSize)
      throw invalidRequest(`A query may select at most ${settings.maxPageSize} ids.`, 'id')
    const rows = await paging.repo.search(
      paging.filter,
      paging.conditions,
      undefined,
      settings.maxPageSize,
    )
    return { records: verify ? verify(rows) : rows, remaining: 0, cursor: '' }
  }

  /** §3.10: `stats` on the collection; counts only the call's tenants when it is limited. */
  async function count(ctx: RequestContext, name: string) {
    const collection = deps.collections.getCachedOrThrow(name)
    const audit = touchedDetails(NO_DETAILS, collection)
    return withFailureDetails(audit, async () => {
      deps.iam.checkPolicies(ctx, [{ operation: 'stats', resources: collectionResource(name) }])
      const { active, archived } = await deps.store.objects.count(
        name,
        ctx.now,
        effectiveTenants(ctx),
      )
      return { value: { active, archived, total: active + archived }, audit }
    })
  }

  return { get, list, search, count }
}
