// src/sandbox/wasm.ts: the few WebAssembly APIs the sandbox uses (the project's TypeScript libs have no DOM types)

export type WasmMemory = { readonly buffer: ArrayBuffer }
export type WasmModule = object

type WasmApi = {
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory
  Module: new (bytes: Uint8Array) => WasmModule
}

/** The global WebAssembly object of the runtime (Node's V8), typed for what the sandbox needs. */
export const wasm: WasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly
