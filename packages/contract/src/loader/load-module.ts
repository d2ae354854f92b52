/**
 * One file of the contract by name, imported (the server's OpenAPI document walks them all).
 * The path is relative on purpose: a bundler (esbuild, for the compiled server) then includes
 * every file of the contract's folder, where a bare `@paddock/contract/${name}` would be left to
 * run time. This file sits in a folder of its own so the pattern does not match it (Vite warns
 * about a pattern that can import its own folder).
 */
export function loadContractModule(name: string): Promise<Record<string, unknown>> {
  return import(`../${name}.ts`) as Promise<Record<string, unknown>>;
}
