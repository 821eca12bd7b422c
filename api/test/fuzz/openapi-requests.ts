/**
 * Requests made from the app's own OpenAPI document with fast-check: for every operation, values
 * that fit its schemas, mixed with the ones a careless or hostile client sends (empty, 1 MB and
 * 10,000-character strings, NUL, lone surrogates, huge and negative numbers, NaN-like strings,
 * arrays where objects go, extra and `__proto__` properties, `../`), in path parameters, query
 * parameters and bodies, and bodies that are not what the operation reads at all.
 */
import fc from 'fast-check';

/** The part of a JSON Schema the document's operations use. */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  method: string;
  /** The path as the document writes it: /api/videos/{id}. */
  path: string;
  parameters: Parameter[];
  /** The JSON body's schema, when the operation declares one. */
  body: Schema | null;
}

export interface FuzzRequest {
  /** The operation it was made for: `GET /api/videos/{id}`. */
  operation: string;
  method: string;
  /** Path and query, percent-encoded where a value needs it. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head']);

/** Every operation of the document, in its order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      ops.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], body: op.requestBody?.content?.['application/json']?.schema ?? null });
    }
  }
  return ops;
}

/** Values the app holds, by the name of the parameter or body field they go in. */
export type Known = Record<string, unknown[]>;

const MEGABYTE_STRING = 'a'.repeat(1024 * 1024);
const LONG_ID = '7'.repeat(10_000);

/** Strings no field should choke on. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  MEGABYTE_STRING,
  LONG_ID,
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '..\\..\\windows',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '-1',
  '0x1f',
  '9'.repeat(400),
  '__proto__',
  'constructor',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '%',
  '%00',
  '\u202e\u{1f600}\u0301',
  'true',
  'null',
];

/** Numbers, all finite (JSON has no others), at and far past every bound. */
const HOSTILE_NUMBERS = [0, -0, -1, 0.5, -2147483649, 2147483648, 2 ** 53 + 2, -(2 ** 63), 1e21, 1e308, -1e308, 5e-324];

/** Values of the wrong kind for any field. */
const deepArray = JSON.parse('['.repeat(500) + ']'.repeat(500)) as unknown;
// JSON.parse keeps `__proto__` as a key of its own, which JSON.stringify then writes.
const protoKey = JSON.parse('{"__proto__":{"admin":true}}') as unknown;
const HOSTILE_VALUES: unknown[] = [null, true, false, [], [1, 'a', null], {}, protoKey, deepArray, { length: -1 }];

const hostileString = fc.constantFrom(...HOSTILE_STRINGS);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(hostileString, fc.constantFrom(...HOSTILE_NUMBERS), fc.constantFrom(...HOSTILE_VALUES));

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

function stringFitting(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') return fc.date({ min: new Date('1970-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((x) => x.length <= (schema.maxLength ?? 1000));
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, minLength + 60);
  const ascii = fc.string({ minLength, maxLength, unit: 'grapheme-ascii' });
  const edges = [schema.maxLength !== undefined ? 'b'.repeat(schema.maxLength + 1) : null, minLength > 0 ? 'c'.repeat(minLength - 1) : null].filter((s): s is string => s !== null);
  return edges.length > 0 ? fc.oneof({ weight: 4, arbitrary: ascii }, fc.constantFrom(...edges)) : ascii;
}

function numberFitting(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e6;
  const max = schema.maximum ?? 1e6;
  const inside = integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const step = integer ? 1 : 0.001;
  return fc.oneof({ weight: 4, arbitrary: inside }, fc.constantFrom(min - step, max + step, min, max));
}

/**
 * A value the schema accepts, or one just past its bounds. Its parts are fitting values too when
 * `clean` (so the request can reach the handler), else now and then hostile ones.
 */
function fitting(schema: Schema | undefined, depth = 0, clean = false, known: Known = {}): fc.Arbitrary<unknown> {
  if (!schema) return fc.jsonValue({ maxDepth: 2 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => fitting(s, depth, clean, known)));
  switch (typeOf(schema)) {
    case 'string':
      return stringFitting(schema);
    case 'integer':
      return numberFitting(schema, true);
    case 'number':
      return numberFitting(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(clean ? fitting(schema.items, depth + 1, true, known) : value(schema.items, depth + 1, known), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, (schema.minItems ?? 0) + 4) });
    case 'object':
      return objectOf(schema, depth, clean, known);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Mostly a fitting value, sometimes a hostile one; deeper down, less often hostile, so bodies still reach handlers. */
function value(schema: Schema | undefined, depth = 0, known: Known = {}): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3 + depth, arbitrary: fitting(schema, depth, false, known) }, { weight: 1, arbitrary: hostileValue });
}

/** `arbitrary`, or now and then a value the app really holds for a field or parameter of that name. */
function orKnown<T>(name: string, arbitrary: fc.Arbitrary<T>, known: Known): fc.Arbitrary<T | unknown> {
  const values = known[name];
  return values && values.length > 0 ? fc.oneof(arbitrary, fc.constantFrom(...values)) : arbitrary;
}

function objectOf(schema: Schema, depth: number, clean: boolean, known: Known): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(props).map(([key, s]) =>
    fc.record({ keep: required.has(key) ? fc.constant(true) : fc.boolean(), v: orKnown(key, clean ? fitting(s, depth + 1, true, known) : value(s, depth, known), known) }).map(({ keep, v }) => (keep ? [[key, v]] : [])),
  );
  const extra = clean ? fc.constant(null) : fc.option(fc.tuple(fc.constantFrom('extra', 'isAdmin', 'constructor', 'x'.repeat(1000)), hostileValue), { freq: 6 });
  const dropRequired = clean ? fc.constant(null) : fc.option(fc.constantFrom(...(required.size > 0 ? [...required] : [''])), { freq: 6 });
  return fc.tuple(fc.tuple(...fields), extra, dropRequired).map(([entries, more, missing]) => {
    const out: Record<string, unknown> = {};
    for (const [key, v] of entries.flat() as Array<[string, unknown]>) out[key] = v;
    // Now and then a required field is missing too.
    if (missing) delete out[missing];
    if (more) out[more[0]] = more[1];
    return out;
  });
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A path or query value percent-encoded for a URL, but for its percent signs, left as they are so
 * that broken escapes (`%`, `%00`) reach the server; a lone surrogate goes as the bytes one would
 * have (not valid UTF-8).
 */
function encodeValue(raw: unknown): string {
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw) ?? '';
  const escaped = text.replace(LONE_SURROGATE, (s) => (s <= '\udbff' ? '\u0001high' : '\u0001low'));
  return escaped
    .replace(/[^%]+/g, encodeURIComponent)
    .replaceAll('%01high', '%ED%A0%80')
    .replaceAll('%01low', '%ED%B0%80');
}

/** A path parameter: a fitting value, a hostile one, a 10,000-character id, or `../` left raw for the router. */
function pathValue(p: Parameter, known: Known): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: orKnown(p.name, fitting(p.schema), known).map(encodeValue) },
    { weight: 2, arbitrary: hostileValue.map(encodeValue) },
    { weight: 1, arbitrary: fc.constantFrom(LONG_ID, '..', '../..', '../../api/admin/users', '.', '%2e%2e%2f', '%2F', 'a/b') },
  );
}

function queryOf(params: Parameter[], known: Known): fc.Arbitrary<string> {
  const parts = params.map((p) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant([] as string[]) },
      { weight: 4, arbitrary: orKnown(p.name, fitting(p.schema), known).map((v) => [`${p.name}=${encodeValue(v)}`]) },
      { weight: 2, arbitrary: hostileValue.map((v) => [`${p.name}=${encodeValue(v)}`]) },
      // The same name twice: the parser makes it an array.
      { weight: 1, arbitrary: fc.tuple(fitting(p.schema), hostileValue).map(([a, b]) => [`${p.name}=${encodeValue(a)}`, `${p.name}=${encodeValue(b)}`]) },
      { weight: 1, arbitrary: fc.constant([`${p.name}`, `${p.name}[]=1`]) },
    ),
  );
  const extra = fc.option(fc.constantFrom('__proto__[admin]=1', 'constructor[prototype][admin]=1', 'extra=1', `${'q'.repeat(1000)}=1`, '&&&', '='), { freq: 5 });
  return fc.tuple(fc.tuple(...parts), extra).map(([chosen, more]) => {
    const all = [...chosen.flat(), ...(more ? [more] : [])];
    return all.length > 0 ? `?${all.join('&')}` : '';
  });
}

/** A JSON text for a body with a `__proto__` key of its own (JSON.stringify never writes one). */
function withProtoKey(json: string): string {
  return json.startsWith('{') ? `{"__proto__":{"admin":true,"is_admin":true},${json.slice(1)}`.replace(',}', '}') : json;
}

interface Body {
  contentType: string | null;
  text: string;
}

const asJson = (v: unknown): Body => ({ contentType: 'application/json', text: JSON.stringify(v) ?? 'null' });

/** Bodies that are not what any operation reads: wrong content types, broken JSON and multipart, hostile form fields. */
const strangeBody: fc.Arbitrary<Body> = fc.oneof(
  fc.constantFrom<Body>(
    { contentType: 'application/json', text: '{' },
    { contentType: 'application/json', text: '{"a":1,}' },
    { contentType: 'application/json', text: '' },
    { contentType: 'application/json', text: '\u0000' },
    { contentType: 'application/json', text: '"\\ud800"' },
    { contentType: 'application/json', text: '1e999' },
    { contentType: 'application/json', text: '[' + '{"a":'.repeat(2000) + '1' + '}'.repeat(2000) + ']' },
    { contentType: 'application/json; charset=utf-16', text: '{}' },
    { contentType: 'text/plain', text: 'hello' },
    { contentType: 'application/xml', text: '<a/>' },
    { contentType: 'application/octet-stream', text: '\u0000\u0001\u0002' },
    { contentType: 'multipart/form-data', text: 'no boundary' },
    { contentType: 'multipart/form-data; boundary=zz', text: '--zz\r\nContent-Disposition: form-data; name="title"\r\n\r\nunterminated' },
    { contentType: 'application/x-www-form-urlencoded', text: '%%%=%' },
    { contentType: null, text: 'untyped' },
  ),
  fc.tuple(hostileString, fc.constantFrom('title', 'description', 'category', 'image', 'video')).map(([v, name]): Body => ({
    contentType: 'multipart/form-data; boundary=fuzz',
    text: `--fuzz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n--fuzz--\r\n`,
  })),
  fc.dictionary(fc.constantFrom('email', 'card_number', 'action', 'decision', '__proto__', 'confirm'), hostileString.map(encodeValue), { maxKeys: 4 }).map((d): Body => ({
    contentType: 'application/x-www-form-urlencoded',
    text: Object.entries(d).map(([k, v]) => `${k}=${v}`).join('&'),
  })),
  hostileValue.map(asJson),
);

function bodyOf(op: Operation, known: Known): fc.Arbitrary<Body | null> {
  if (op.method === 'GET' || op.method === 'HEAD') return fc.constant(null);
  const declared = op.body ? fitting(op.body, 0, false, known) : fc.constant({});
  const clean = op.body ? fitting(op.body, 0, true, known) : fc.constant({});
  return fc.oneof(
    { weight: op.body ? 4 : 1, arbitrary: clean.map(asJson) },
    { weight: op.body ? 6 : 1, arbitrary: declared.map(asJson) },
    // Most operations that declare no JSON body take none (or multipart, or tus): sent as they are.
    { weight: op.body ? 1 : 4, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: declared.map((v) => ({ ...asJson(v), text: withProtoKey(asJson(v).text) })) },
    // The fields posted as a form, as the /pay pages take them.
    { weight: 1, arbitrary: declared.map((v): Body => ({ contentType: 'application/x-www-form-urlencoded', text: formOf(v) })) },
    { weight: 3, arbitrary: strangeBody },
  );
}

function formOf(v: unknown): string {
  if (v === null || typeof v !== 'object') return `value=${encodeValue(v)}`;
  return Object.entries(v).map(([k, item]) => `${encodeValue(k)}=${encodeValue(item)}`).join('&');
}

/** Header values tus and the webhooks read, fitting and hostile (headers carry no NUL or lone surrogate). */
const HEADER_VALUES = ['1.0.0', '0', '-1', '1e999', 'NaN', '99999999999999999999', 'abc', '', LONG_ID, 'filename ../../x,type dmlkZW8vbXA0'];
const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom('tus-resumable', 'upload-length', 'upload-offset', 'upload-metadata', 'stripe-signature', 'paypal-transmission-sig', 'range'),
  fc.constantFrom(...HEADER_VALUES),
  { maxKeys: 3 },
);

/**
 * Requests for one operation: its path parameters, query, body and a few headers. `known` names
 * values the app holds (a video's id, a channel's slug) by parameter or field name, tried now and
 * then so that requests also reach what exists.
 */
export function requestsFor(op: Operation, known: Known = {}): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  return fc
    .record({
      path: fc.tuple(...pathParams.map((p) => pathValue(p, known))),
      query: queryOf(queryParams, known),
      body: bodyOf(op, known),
      headers: fc.option(extraHeaders, { freq: 4 }),
    })
    .map(({ path, query, body, headers }) => {
      let url = op.path;
      pathParams.forEach((p, i) => {
        url = url.replace(`{${p.name}}`, () => path[i] || 'x');
      });
      const all: Record<string, string> = { ...(headers ?? {}) };
      if (body?.contentType) all['content-type'] = body.contentType;
      return { operation: `${op.method} ${op.path}`, method: op.method, url: `${url}${query}`, headers: all, ...(body ? { body: body.text } : {}) };
    });
}
