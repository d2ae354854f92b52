/**
 * One file of the contract by name, imported (the server's OpenAPI document walks them all).
 * The path is relative on purpose: a bundler (esbuild, for the compiled server) then includes
 * every file of this folder, where a bare `@paddock/contract/${name}` would be left to run time.
 */
export function loadContractModule(name: string): Promise<Record<string, unknown>> {
  return import(`./${name}.ts`) as Promise<Record<string, unknown>>;
}
