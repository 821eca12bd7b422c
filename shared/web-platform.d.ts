/**
 * The WHATWG URL API exists in every runtime shared/ code runs in (browsers, workers, Node),
 * but shared/ compiles with neither the DOM nor the Node types. This declares the part it uses.
 * The other trees compile shared/ with their own, complete declarations and skip this file.
 */
declare class URLSearchParams {
  constructor(init?: string);
  get(name: string): string | null;
  set(name: string, value: string): void;
  toString(): string;
}

declare class URL {
  constructor(url: string, base?: string);
  readonly origin: string;
  readonly searchParams: URLSearchParams;
  pathname: string;
  search: string;
  hash: string;
  href: string;
}
