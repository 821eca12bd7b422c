/**
 * A PNG encoder for RGBA images that several threads write at once, each its own band of rows.
 *
 * A PNG's pixels are one zlib stream, which may be cut into IDAT chunks anywhere. Each band is
 * filtered ('up': every byte minus the byte above it, which suits a print enlarged from a smaller
 * crop) and compressed into deflate blocks of its own, none marked final, and ends with an empty
 * stored block (what zlib calls a sync flush), so it ends on a byte boundary and the next band's
 * blocks follow it directly. Each band's bytes go into an IDAT chunk of their own, with its own
 * CRC, so a band needs nothing from another: assemblePng puts the signature, the header, the zlib
 * header, the bands, a final empty block and the Adler-32 of all the filtered bytes (combined
 * from each band's) together, in order.
 *
 * The compression is Huffman coding alone, one code per block of a few rows (no LZ77 matching):
 * filtered photographic pixels repeat too little for matching to pay, and coding alone is a few
 * nanoseconds a byte. On the 3600x4800 bench print it makes a smaller file than the browser's
 * canvas encoder or libvips at its default (see README, bench:print).
 *
 * No DOM, no Node: the browser's print worker and tests in Node run the same code.
 */
import type { RgbaImage } from './image.ts';

/** One band of rows, encoded: an IDAT chunk ready to go into the file in order. */
export interface PngPiece {
  /** A whole IDAT chunk (length, type, data, CRC): one band's share of the zlib stream. */
  chunks: Uint8Array;
  /** Adler-32 of the band's uncompressed bytes (filter bytes included). */
  adler: number;
  /** How many uncompressed bytes the band has: rows * (width * 4 + 1). */
  length: number;
}

export interface PngOptions {
  /** Written as a pHYs chunk (pixels per metre), so the file says what size it prints at. */
  dpi?: number;
}

/** Rows per deflate block: each block has its own Huffman code, fitted to its rows. */
export const BLOCK_ROWS = 16;
const ADLER_BASE = 65521;
/**
 * Bytes summed before the Adler-32 sums are reduced: small enough that the second sum stays
 * below 2^31 (so the JIT keeps it a small integer), and a quarter of a 900-pixel row.
 */
const ADLER_RUN = 3600;

const FILTER_NONE = 0;
const FILTER_UP = 2;
const END_OF_BLOCK = 256;
/** The order the code length code's lengths are sent in (RFC 1951, 3.2.7). */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
/** zlib header: deflate, 32 KB window, no dictionary; (0x78 * 256 + 0x01) % 31 === 0. */
const ZLIB_HEADER = Uint8Array.of(0x78, 0x01);
/** An empty final block with the fixed code: BFINAL 1, BTYPE 01, end-of-block (seven 0 bits). */
const FINAL_EMPTY_BLOCK = Uint8Array.of(0x03, 0x00);

/** Growable output with a bit writer (deflate packs bits from the least significant end). */
class BitWriter {
  pos = 0;
  bits = 0;
  count = 0;

  constructor(public buf: Uint8Array) {}

  /** Makes room for `bytes` more bytes. */
  reserve(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.pos + bytes, Math.ceil(this.buf.length * 1.5)));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  /** Writes the `n` (at most 16) low bits of `value`. Room must have been reserved. */
  write(value: number, n: number): void {
    this.bits |= value << this.count;
    this.count += n;
    while (this.count >= 8) {
      this.buf[this.pos++] = this.bits & 0xff;
      this.bits >>>= 8;
      this.count -= 8;
    }
  }

  /** Pads with zero bits to the next byte boundary. */
  align(): void {
    if (this.count > 0) this.write(0, 8 - this.count);
  }
}

/**
 * Code lengths of a Huffman code for `freq`, none longer than `limit` bits, complete (the
 * lengths' Kraft sum is exactly 1, as zlib's inflate requires). Symbols of frequency 0 get
 * length 0. At least two symbols always get a code, so a block with one symbol is still valid.
 */
export function huffmanLengths(freq: ArrayLike<number>, limit: number): Uint8Array {
  const n = freq.length;
  const lengths = new Uint8Array(n);
  const used: number[] = [];
  for (let s = 0; s < n; s++) if (freq[s]! > 0) used.push(s);
  for (let s = 0; used.length < 2; s++) if (!used.includes(s)) used.push(s);
  // Least frequent first: they get the longest codes.
  used.sort((a, b) => (freq[a]! || 0) - (freq[b]! || 0) || a - b);
  const m = used.length;
  if (m > 2 ** limit) throw new RangeError(`${m} symbols cannot all have codes of ${limit} bits or fewer`);
  // Huffman's algorithm with two queues over the sorted leaves; parent[] records the tree.
  const weight = new Float64Array(2 * m);
  const parent = new Int32Array(2 * m);
  for (let i = 0; i < m; i++) weight[i] = Math.max(1, freq[used[i]!]!);
  let leaf = 0;
  let node = m;
  let next = m;
  const take = () => (leaf < m && (node >= next || weight[leaf]! <= weight[node]!) ? leaf++ : node++);
  for (; next < 2 * m - 1; next++) {
    const a = take();
    const b = take();
    weight[next] = weight[a]! + weight[b]!;
    parent[a] = next;
    parent[b] = next;
  }
  // Depths from the root (the last node) down.
  const depth = new Int32Array(2 * m);
  for (let i = 2 * m - 3; i >= 0; i--) depth[i] = depth[parent[i]!]! + 1;
  const maxDepth = Math.max(...depth.subarray(0, m));
  const count = new Int32Array(Math.max(maxDepth, limit) + 1);
  for (let i = 0; i < m; i++) count[depth[i]!]!++;
  // Too deep: move leaves up in pairs, keeping the code complete (JPEG, Annex K.3).
  for (let len = maxDepth; len > limit; len--) {
    while (count[len]! > 0) {
      let j = len - 2;
      while (count[j] === 0) j--;
      count[len]! -= 2;
      count[len - 1]! += 1;
      count[j + 1]! += 2;
      count[j]! -= 1;
    }
  }
  // The longest lengths to the least frequent symbols.
  let i = 0;
  for (let len = limit; len >= 1; len--) {
    for (let k = 0; k < count[len]!; k++) lengths[used[i++]!] = len;
  }
  return lengths;
}

/** Canonical codes for `lengths`, bit-reversed for writing (deflate sends codes from their top bit). */
function canonicalCodes(lengths: Uint8Array): Int32Array {
  const maxLen = Math.max(...lengths);
  const count = new Int32Array(maxLen + 1);
  for (const len of lengths) if (len) count[len]!++;
  const nextCode = new Int32Array(maxLen + 1);
  for (let len = 1, code = 0; len <= maxLen; len++) {
    code = (code + count[len - 1]!) << 1;
    nextCode[len] = code;
  }
  const codes = new Int32Array(lengths.length);
  for (let s = 0; s < lengths.length; s++) {
    const len = lengths[s]!;
    if (!len) continue;
    let code = nextCode[len]!++;
    let reversed = 0;
    for (let b = 0; b < len; b++, code >>= 1) reversed = (reversed << 1) | (code & 1);
    codes[s] = reversed;
  }
  return codes;
}

/** The literal/length and distance code lengths, run-length coded with symbols 16, 17 and 18 (RFC 1951, 3.2.7). */
function runLengthCodeLengths(lengths: Uint8Array): { symbols: number[]; extra: number[] } {
  const symbols: number[] = [];
  const extra: number[] = [];
  for (let i = 0; i < lengths.length; ) {
    const len = lengths[i]!;
    let run = 1;
    while (i + run < lengths.length && lengths[i + run] === len) run++;
    i += run;
    if (len === 0) {
      while (run >= 11) {
        const r = Math.min(run, 138);
        symbols.push(18);
        extra.push(r - 11);
        run -= r;
      }
      if (run >= 3) {
        symbols.push(17);
        extra.push(run - 3);
        run = 0;
      }
    } else {
      symbols.push(len);
      extra.push(0);
      run--;
      while (run >= 3) {
        const r = Math.min(run, 6);
        symbols.push(16);
        extra.push(r - 3);
        run -= r;
      }
    }
    for (; run > 0; run--) {
      symbols.push(len);
      extra.push(0);
    }
  }
  return { symbols, extra };
}

/** Extra bits after each of the code length code's repeat symbols. */
const REPEAT_BITS: Record<number, number> = { 16: 2, 17: 3, 18: 7 };

/**
 * Writes a dynamic-Huffman block header (not final) for literals only: 257 literal/length codes
 * (the bytes and end-of-block) and two distance codes of one bit, never used (zlib sends the same
 * pair when a block has no matches; some decoders refuse a block with no distance code).
 * Returns the literal codes as (reversed code << 4) | length, for the coding loop.
 */
function writeBlockHeader(out: BitWriter, literalLengths: Uint8Array): Int32Array {
  const all = new Uint8Array(259);
  all.set(literalLengths);
  all[257] = 1;
  all[258] = 1;
  const { symbols, extra } = runLengthCodeLengths(all);
  const clFreq = new Int32Array(19);
  for (const s of symbols) clFreq[s]!++;
  const clLengths = huffmanLengths(clFreq, 7);
  const clCodes = canonicalCodes(clLengths);
  let hclen = 19;
  while (hclen > 4 && clLengths[CODE_LENGTH_ORDER[hclen - 1]!] === 0) hclen--;
  out.reserve(16 + hclen + symbols.length * 3);
  out.write(0, 1); // BFINAL: more blocks follow
  out.write(2, 2); // BTYPE: dynamic Huffman codes
  out.write(257 - 257, 5); // HLIT
  out.write(2 - 1, 5); // HDIST
  out.write(hclen - 4, 4); // HCLEN
  for (let i = 0; i < hclen; i++) out.write(clLengths[CODE_LENGTH_ORDER[i]!]!, 3);
  for (let i = 0; i < symbols.length; i++) {
    const s = symbols[i]!;
    out.write(clCodes[s]!, clLengths[s]!);
    if (s >= 16) out.write(extra[i]!, REPEAT_BITS[s]!);
  }
  const codes = canonicalCodes(literalLengths);
  const table = new Int32Array(257);
  for (let s = 0; s < 257; s++) table[s] = (codes[s]! << 4) | literalLengths[s]!;
  return table;
}

/** Whether this platform stores the low byte of a 16- or 32-bit word first (every browser's does). */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * Filtered bytes of one row, four at a time: the row's pixels as 32-bit words minus the words
 * above them, byte by byte with no borrow between bytes (`mask` 0 makes the row above zeros,
 * which is filter 'none').
 */
function upWord(c: number, p: number): number {
  return ((c | 0x80808080) - (p & 0x7f7f7f7f)) ^ ((c ^ ~p) & 0x80808080);
}

/**
 * Pass 1 over one row's pixels (`row` and `above` are word offsets; `mask` 0 makes the row above
 * zeros, which is filter 'none'): counts each filtered byte, one table per byte of the pixel (so
 * increments of one count do not wait on each other), and carries the Adler-32 sums (`sums`,
 * [a, b]) on. One call per row, and state only in typed arrays, so the JIT optimises it once as a
 * whole function.
 */
function countRow(words: Int32Array, row: number, above: number, mask: number, width: number, f0: Int32Array, f1: Int32Array, f2: Int32Array, f3: Int32Array, sums: Int32Array): void {
  let a = sums[0]!;
  let b = sums[1]!;
  for (let i = 0; i < width; ) {
    const end = Math.min(width, i + ADLER_RUN / 4);
    for (; i < end; i++) {
      const d = upWord(words[row + i]!, words[above + i]! & mask);
      const v0 = d & 0xff;
      const v1 = (d >>> 8) & 0xff;
      const v2 = (d >>> 16) & 0xff;
      const v3 = d >>> 24;
      f0[v0]!++;
      f1[v1]!++;
      f2[v2]!++;
      f3[v3]!++;
      a += v0;
      b += a;
      a += v1;
      b += a;
      a += v2;
      b += a;
      a += v3;
      b += a;
    }
    a %= ADLER_BASE;
    b %= ADLER_BASE;
  }
  sums[0] = a;
  sums[1] = b;
}

/**
 * Pass 2 over one row (arguments as countRow's): the filter byte's code, then each filtered
 * byte's (`table`: reversed code << 4 | length). The bits gather in a 32-bit accumulator that is
 * stored as a 16-bit word after every code and moved on only when it holds 16 bits, so the loop
 * has no branch to mispredict. `state` is [word position in `buf`, accumulator, bits in it].
 * Room for the codes and two spare bytes must have been reserved.
 */
function codeRow(words: Int32Array, row: number, above: number, mask: number, width: number, filter: number, table: Int32Array, buf: Uint16Array, state: Int32Array): void {
  let at = state[0]!;
  let acc = state[1]!;
  let n = state[2]!;
  let e = table[filter]!;
  acc |= (e >>> 4) << n;
  n += e & 15;
  let full = n >>> 4;
  buf[at] = acc;
  at += full;
  acc >>>= full << 4;
  n -= full << 4;
  for (let i = 0; i < width; i++) {
    const d = upWord(words[row + i]!, words[above + i]! & mask);
    e = table[d & 0xff]!;
    acc |= (e >>> 4) << n;
    n += e & 15;
    buf[at] = acc;
    full = n >>> 4;
    at += full;
    acc >>>= full << 4;
    n -= full << 4;
    e = table[(d >>> 8) & 0xff]!;
    acc |= (e >>> 4) << n;
    n += e & 15;
    buf[at] = acc;
    full = n >>> 4;
    at += full;
    acc >>>= full << 4;
    n -= full << 4;
    e = table[(d >>> 16) & 0xff]!;
    acc |= (e >>> 4) << n;
    n += e & 15;
    buf[at] = acc;
    full = n >>> 4;
    at += full;
    acc >>>= full << 4;
    n -= full << 4;
    e = table[d >>> 24]!;
    acc |= (e >>> 4) << n;
    n += e & 15;
    buf[at] = acc;
    full = n >>> 4;
    at += full;
    acc >>>= full << 4;
    n -= full << 4;
  }
  state[0] = at;
  state[1] = acc;
  state[2] = n;
}

/** Pass 2 over rows [r0, r1), continuing the writer's bits. */
function codeBlock(words: Int32Array, width: number, r0: number, r1: number, table: Int32Array, out: BitWriter): void {
  let pos = out.pos;
  let acc = out.bits;
  let n = out.count;
  // Words need an even byte position: take the last whole byte back into the accumulator.
  if (pos & 1) {
    pos--;
    acc = out.buf[pos]! | (acc << 8);
    n += 8;
  }
  const buf = new Uint16Array(out.buf.buffer, out.buf.byteOffset, out.buf.length >> 1);
  const state = Int32Array.of(pos >> 1, acc, n);
  for (let r = r0; r < r1; r++) {
    const row = r * width;
    codeRow(words, row, r === 0 ? row : row - width, r === 0 ? 0 : -1, width, r === 0 ? FILTER_NONE : FILTER_UP, table, buf, state);
  }
  out.pos = state[0]! << 1;
  out.bits = state[1]!;
  out.count = state[2]!;
}

/** The pixels as 32-bit words (a copy only when they do not start on a 4-byte boundary). */
function wordsOf(pixels: Uint8Array | Uint8ClampedArray, bytes: number): Int32Array {
  if (pixels.byteOffset % 4 === 0) return new Int32Array(pixels.buffer, pixels.byteOffset, bytes / 4);
  return new Int32Array(pixels.slice(0, bytes).buffer);
}

/**
 * Writes one band of a PNG (see assemblePng) a block of rows at a time, into one IDAT chunk.
 * The rows can come from a small buffer that is written over between blocks, so a band is
 * resampled and coded a few rows at a time while they are in the CPU's cache.
 */
export class PngPieceWriter {
  private readonly out: BitWriter;
  private readonly freq = new Int32Array(257);
  private readonly counts = [0, 1, 2, 3].map(() => new Int32Array(256)) as [Int32Array, Int32Array, Int32Array, Int32Array];
  /** Adler-32 sums [a, b] of the bytes so far. */
  private readonly sums = Int32Array.of(1, 0);
  private length = 0;

  /**
   * `reuse`: a buffer to write into (the memory of an earlier piece, no longer needed) when it is
   * large enough for `expectedRows` rows; the writer grows past it if need be.
   */
  constructor(
    readonly width: number,
    expectedRows: number,
    reuse?: ArrayBuffer,
  ) {
    if (!LITTLE_ENDIAN) throw new Error('This PNG encoder needs a little-endian platform');
    // Filtered photographs code to about 3 bits a byte.
    const capacity = Math.ceil(((width * 4 + 1) * expectedRows) / 2) + 4096;
    this.out = new BitWriter(reuse && reuse.byteLength >= capacity ? new Uint8Array(reuse) : new Uint8Array(capacity));
    // Room for the IDAT chunk's length and type, written by finish.
    this.out.pos = 8;
  }

  /**
   * Codes rows [from, to) of `pixels` (whole rows of this width) as one deflate block. Row 0 of
   * `pixels` is filtered 'none' (the band's first row: nothing above it here), every other row
   * 'up', from the row before it in `pixels`.
   */
  addRows(pixels: Uint8Array | Uint8ClampedArray, from: number, to: number): void {
    const { width, freq, counts, sums, out } = this;
    if (!(from >= 0 && from < to && pixels.length >= width * 4 * to)) throw new RangeError(`${pixels.length} bytes do not hold rows ${from}-${to} of ${width} RGBA pixels`);
    const words = wordsOf(pixels, width * 4 * to);
    const [f0, f1, f2, f3] = counts;
    // Pass 1: how often each filtered byte occurs in this block, for its code.
    for (const f of [f0, f1, f2, f3, freq]) f.fill(0);
    for (let r = from; r < to; r++) {
      const row = r * width;
      const filter = r === 0 ? FILTER_NONE : FILTER_UP;
      freq[filter]!++;
      sums[0] = (sums[0]! + filter) % ADLER_BASE;
      sums[1] = (sums[1]! + sums[0]!) % ADLER_BASE;
      countRow(words, row, r === 0 ? row : row - width, r === 0 ? 0 : -1, width, f0, f1, f2, f3, sums);
    }
    for (let v = 0; v < 256; v++) freq[v]! += f0[v]! + f1[v]! + f2[v]! + f3[v]!;
    freq[END_OF_BLOCK] = 1;
    // Pass 2: the block's header and codes.
    const lengths = huffmanLengths(freq, 15);
    const table = writeBlockHeader(out, lengths);
    let bits = 0;
    for (let s = 0; s < 257; s++) bits += freq[s]! * lengths[s]!;
    out.reserve(Math.ceil(bits / 8) + 8);
    codeBlock(words, width, from, to, table, out);
    out.write(table[END_OF_BLOCK]! >>> 4, table[END_OF_BLOCK]! & 15);
    this.length += (width * 4 + 1) * (to - from);
  }

  /** Ends the band (a sync flush: an empty stored block, to a byte boundary) and its IDAT chunk. */
  finish(): PngPiece {
    const { out } = this;
    out.reserve(12);
    out.write(0, 3);
    out.align();
    out.buf.set([0x00, 0x00, 0xff, 0xff], out.pos);
    out.pos += 4;
    const dataLength = out.pos - 8;
    if (dataLength > 0x7fffffff) throw new RangeError('A band too large for one PNG chunk');
    const view = new DataView(out.buf.buffer, out.buf.byteOffset, out.buf.byteLength);
    view.setUint32(0, dataLength);
    out.buf.set(IDAT, 4);
    view.setUint32(out.pos, crc32(out.buf.subarray(4, out.pos)));
    return { chunks: out.buf.subarray(0, out.pos + 4), adler: ((this.sums[1]! << 16) | this.sums[0]!) >>> 0, length: this.length };
  }
}

/**
 * Encodes rows of an RGBA image as one band of a PNG (see assemblePng): `pixels` holds `rows`
 * rows of `width` pixels. The first row is filtered 'none' (it has no row above it here), the
 * others 'up'. The band's last block is not final; assemblePng ends the stream.
 */
export function encodePngPiece(pixels: Uint8Array | Uint8ClampedArray, width: number, rows: number, reuse?: ArrayBuffer): PngPiece {
  if (pixels.length < width * 4 * rows || rows < 1 || width < 1) throw new RangeError(`${pixels.length} bytes do not hold ${rows} rows of ${width} RGBA pixels`);
  const writer = new PngPieceWriter(width, rows, reuse);
  for (let r0 = 0; r0 < rows; r0 += BLOCK_ROWS) writer.addRows(pixels, r0, Math.min(rows, r0 + BLOCK_ROWS));
  return writer.finish();
}

const IDAT = Uint8Array.from('IDAT', (c) => c.charCodeAt(0));

/** A chunk: length, type, data, CRC of the type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const file = new Uint8Array(data.length + 12);
  const view = new DataView(file.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) file[4 + i] = type.charCodeAt(i);
  file.set(data, 8);
  view.setUint32(8 + data.length, crc32(file.subarray(4, 8 + data.length)));
  return file;
}

/** CRC-32 tables for eight bytes at a time (slicing by 8). */
const CRC_TABLES = (() => {
  const t = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    for (let k = 1; k < 8; k++) t[k * 256 + n] = t[(k - 1) * 256 + n]! >>> 8 ^ t[t[(k - 1) * 256 + n]! & 0xff]!;
  }
  return t;
})();

/** CRC-32 as PNG chunks use it. */
export function crc32(data: Uint8Array): number {
  const t = CRC_TABLES;
  let c = -1;
  let i = 0;
  const end8 = data.length - 7;
  for (; i < end8; i += 8) {
    const lo = c ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24));
    c =
      t[1792 + (lo & 0xff)]! ^
      t[1536 + ((lo >>> 8) & 0xff)]! ^
      t[1280 + ((lo >>> 16) & 0xff)]! ^
      t[1024 + (lo >>> 24)]! ^
      t[768 + data[i + 4]!]! ^
      t[512 + data[i + 5]!]! ^
      t[256 + data[i + 6]!]! ^
      t[data[i + 7]!]!;
  }
  for (; i < data.length; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** Adler-32 of two runs of bytes put together, from each run's own (zlib's adler32_combine). */
export function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % ADLER_BASE;
  let sum1 = first & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (second & 0xffff) + ADLER_BASE - 1;
  sum2 += (first >>> 16) + (second >>> 16) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

/**
 * The whole PNG from its bands, top to bottom: the parts of the file in order (for a Blob, or
 * joined). RGBA, 8 bits a channel, not interlaced.
 */
export function assemblePng(width: number, height: number, pieces: PngPiece[], options: PngOptions = {}): Uint8Array[] {
  return [...pngHead(width, height, options), ...pieces.map((p) => p.chunks), ...pngTail(width, height, pieces)];
}

/** The start of the file, before the bands' IDAT chunks: signature, header, pHYs, the zlib header. */
export function pngHead(width: number, height: number, options: PngOptions = {}): Uint8Array[] {
  const header = new Uint8Array(13);
  const h = new DataView(header.buffer);
  h.setUint32(0, width);
  h.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, adaptive filters, not interlaced
  const parts = [PNG_SIGNATURE, chunk('IHDR', header)];
  if (options.dpi) {
    const phys = new Uint8Array(9);
    const perMetre = Math.round(options.dpi / 0.0254);
    const p = new DataView(phys.buffer);
    p.setUint32(0, perMetre);
    p.setUint32(4, perMetre);
    phys[8] = 1; // the unit is the metre
    parts.push(chunk('pHYs', phys));
  }
  parts.push(chunk('IDAT', ZLIB_HEADER));
  return parts;
}

/**
 * The end of the file, after the bands' IDAT chunks: a final empty block, the Adler-32 of all the
 * bands' bytes (from each band's), IEND. `pieces` need only their sums and lengths, in order.
 */
export function pngTail(width: number, height: number, pieces: Pick<PngPiece, 'adler' | 'length'>[]): Uint8Array[] {
  const rows = pieces.reduce((sum, p) => sum + p.length, 0) / (width * 4 + 1);
  if (rows !== height) throw new RangeError(`The pieces hold ${rows} rows, not ${height}`);
  let adler = 1;
  for (const piece of pieces) adler = adler32Combine(adler, piece.adler, piece.length);
  const tail = new Uint8Array(6);
  tail.set(FINAL_EMPTY_BLOCK);
  new DataView(tail.buffer).setUint32(2, adler);
  return [chunk('IDAT', tail), chunk('IEND', new Uint8Array(0))];
}

/** The image as one PNG on this thread (one band). */
export function encodePng(image: RgbaImage, options: PngOptions = {}): Uint8Array {
  const parts = assemblePng(image.width, image.height, [encodePngPiece(image.data, image.width, image.height)], options);
  const file = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    file.set(part, at);
    at += part.length;
  }
  return file;
}
