/**
 * A set of int64 values held compactly: what a listing keeps to print no pet twice. A `Set` of a million ids holds 40 MiB or more (an
 * object per id above 2^31, a bigint per id above 2^53) and refuses more than 2^24 members. Here ids are grouped in blocks of 64
 * consecutive values: a block's first id takes 8 bytes (a slot of {@link singles}), a block of two or more a 64-bit bitmap (16 bytes,
 * {@link blocks}), so a store of consecutive ids costs a fraction of a byte an id, and ids far apart 11 to 22 bytes each.
 */

/** Most slots used per slot held before a table doubles: linear probing stays short below it. */
const MAX_LOAD = 0.75;
const FIRST_SLOTS = 64;
/**
 * Tables of each kind, picked by a block's hash: each doubles on its own, so that a table's old and new copies, held together while it
 * grows, are a 64th of the whole (a single table of a million ids would hold 8 and 16 MiB at once).
 */
const PARTS = 64;
const PART_SHIFT = 26;
const TWO_32 = 4294967296;

/** An open-addressing table of int32 words, `width` a slot, keyed by a 64-bit block number (two int32); all-zero words mark a free slot. */
class SlotTable {
  words: Int32Array;
  mask = FIRST_SLOTS - 1;
  used = 0;

  constructor(
    private readonly width: number,
    /** The block number of the slot at word `at`, written to `out` as [high, low]. */
    private readonly keyAt: (words: Int32Array, at: number, out: Int32Array) => void,
  ) {
    this.words = new Int32Array(FIRST_SLOTS * width);
  }

  private readonly key = new Int32Array(2);

  /** The word index of the slot of block (high, low), whose {@link hash} is `h`, or of the free slot where it would go. */
  find(high: number, low: number, h: number): number {
    const { words, width, key } = this;
    let slot = h & this.mask;
    for (;;) {
      const at = slot * width;
      if (this.isFree(at)) return at;
      this.keyAt(words, at, key);
      if (key[0] === high && key[1] === low) return at;
      slot = (slot + 1) & this.mask;
    }
  }

  isFree(at: number): boolean {
    for (let i = 0; i < this.width; i += 1) if (this.words[at + i] !== 0) return false;
    return true;
  }

  /** Counts a slot just filled, and doubles the table when it is too full. */
  filled(): void {
    this.used += 1;
    if (this.used > (this.mask + 1) * MAX_LOAD) this.grow();
  }

  private grow(): void {
    const old = this.words;
    const { width, key } = this;
    this.words = new Int32Array(old.length * 2);
    this.mask = (this.mask << 1) | 1;
    for (let at = 0; at < old.length; at += width) {
      let free = true;
      for (let i = 0; i < width; i += 1) if (old[at + i] !== 0) free = false;
      if (free) continue;
      this.keyAt(old, at, key);
      const to = this.find(key[0]!, key[1]!, hash(key[0]!, key[1]!));
      for (let i = 0; i < width; i += 1) this.words[to + i] = old[at + i]!;
    }
    // Its memory back at once, not at the garbage collector's next look: a table of a million ids is 8 MiB. (ES2024, in every Node
    // petstore runs on; the ES2023 lib of tsconfig.json does not declare it.)
    (old.buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
  }
}

/** An open-addressing hash set of int64s (a safe-integer `number` and the `bigint` of the same value are one member). */
export class Int64Set {
  /** Per block with one member: that member, [high, low] (block number: the id >> 6). The pair (0, 0), id 0, is {@link hasZero}. */
  private readonly singles = Array.from({ length: PARTS }, () => new SlotTable(2, singleKey));
  /** Per block with two members or more: [block high, block low, bits 0-31, bits 32-63]; a used slot has a bit set. */
  private readonly blocks = Array.from({ length: PARTS }, () => new SlotTable(4, blockKey));
  private hasZero = false;
  private readonly block = new Int32Array(2);
  /** Members held. */
  size = 0;

  /**
   * Adds `value`, an int64: a safe integer or a bigint from -2^63 to 2^63 - 1 (the caller checks; a bigint outside is taken modulo 2^64).
   * Returns true when it was not a member before.
   */
  add(value: number | bigint): boolean {
    const added = this.visit(value, true);
    if (added) this.size += 1;
    return added;
  }

  /** Is `value` a member? As {@link add}, without adding it. */
  has(value: number | bigint): boolean {
    return !this.visit(value, false);
  }

  /** Whether `value` was absent; with `add`, it is then a member. */
  private visit(value: number | bigint, add: boolean): boolean {
    let high: number;
    let low: number;
    if (typeof value === 'number') {
      // Exact for every safe integer: a division by 2^32 and ToInt32 lose no bits.
      high = Math.floor(value / TWO_32) | 0;
      low = value | 0;
    } else {
      high = Number(BigInt.asIntN(32, value >> 32n));
      low = Number(BigInt.asIntN(32, value));
    }
    if (high === 0 && low === 0) {
      const absent = !this.hasZero;
      if (add) this.hasZero = true;
      return absent;
    }
    const block = this.block;
    blockOf(high, low, block);
    const bit = low & 63;
    const h = hash(block[0]!, block[1]!);
    const blocks = this.blocks[h >>> PART_SHIFT]!;
    const singles = this.singles[h >>> PART_SHIFT]!;
    const at = blocks.find(block[0]!, block[1]!, h);
    if (!blocks.isFree(at)) return setBit(blocks.words, at, bit, add);
    const single = singles.find(block[0]!, block[1]!, h);
    if (singles.isFree(single)) {
      if (add) {
        singles.words[single] = high;
        singles.words[single + 1] = low;
        singles.filled();
      }
      return true;
    }
    if (singles.words[single] === high && singles.words[single + 1] === low) return false;
    if (!add) return true;
    // A second member of the block: a bitmap of both from now on (the single stays, behind the block that is read first).
    const other = singles.words[single + 1]! & 63;
    const words = blocks.words;
    words[at] = block[0]!;
    words[at + 1] = block[1]!;
    setBit(words, at, other, true);
    setBit(words, at, bit, true);
    blocks.filled();
    return true;
  }
}

/** The block of the member at word `at` of a table of singles. */
function singleKey(words: Int32Array, at: number, out: Int32Array): void {
  blockOf(words[at]!, words[at + 1]!, out);
}

/** The block of the bitmap at word `at` of a table of blocks. */
function blockKey(words: Int32Array, at: number, out: Int32Array): void {
  out[0] = words[at]!;
  out[1] = words[at + 1]!;
}

/** The block number of id (high, low), the id >> 6, as [high, low] in `out`. */
function blockOf(high: number, low: number, out: Int32Array): void {
  out[0] = high >> 6;
  out[1] = (low >>> 6) | (high << 26);
}

/** Whether bit `bit` of the block at `at` was clear; with `set`, it is then set. */
function setBit(words: Int32Array, at: number, bit: number, set: boolean): boolean {
  const word = at + 2 + (bit >> 5);
  const mask = 1 << (bit & 31);
  const clear = (words[word]! & mask) === 0;
  if (set) words[word] = words[word]! | mask;
  return clear;
}

/** MurmurHash3's 32-bit finaliser over both halves: blocks that differ in their low bits only (most stores) still spread. */
function hash(high: number, low: number): number {
  let h = low ^ Math.imul(high, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
