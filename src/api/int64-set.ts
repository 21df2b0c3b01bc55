/**
 * A set of int64 values in 8 bytes a slot: what a listing keeps to print no pet twice. A `Set` of a million ids holds 40 MiB or more
 * (an object per id above 2^31, a bigint per id above 2^53) and refuses more than 2^24 entries; this holds 16 MiB, and grows to any size.
 */

/** Most slots used per slot held before the table doubles: linear probing stays short below it. */
const MAX_LOAD = 0.75;
const FIRST_SLOTS = 1024;
const TWO_32 = 4294967296;

/** An open-addressing hash set of int64s (a safe-integer `number` and the `bigint` of the same value are one member). */
export class Int64Set {
  /** Each slot as two int32: [high, low]; the pair (0, 0) marks an empty slot, so 0 itself is {@link hasZero}. */
  private slots = new Int32Array(FIRST_SLOTS * 2);
  private mask = FIRST_SLOTS - 1;
  private hasZero = false;
  /** Members held. */
  size = 0;

  /**
   * Adds `value`, an int64: a safe integer or a bigint from -2^63 to 2^63 - 1 (the caller checks; a bigint outside is taken modulo 2^64).
   * Returns true when it was not a member before.
   */
  add(value: number | bigint): boolean {
    const [high, low] = halves(value);
    return this.addHalves(high, low);
  }

  /** Is `value` a member? As {@link add}, without adding it. */
  has(value: number | bigint): boolean {
    const [high, low] = halves(value);
    if (high === 0 && low === 0) return this.hasZero;
    const at = this.find(high, low) * 2;
    return this.slots[at] !== 0 || this.slots[at + 1] !== 0;
  }

  private addHalves(high: number, low: number): boolean {
    if (high === 0 && low === 0) {
      if (this.hasZero) return false;
      this.hasZero = true;
      this.size += 1;
      return true;
    }
    const slot = this.find(high, low);
    const at = slot * 2;
    if (this.slots[at] !== 0 || this.slots[at + 1] !== 0) return false;
    this.slots[at] = high;
    this.slots[at + 1] = low;
    this.size += 1;
    if (this.size > (this.mask + 1) * MAX_LOAD) this.grow();
    return true;
  }

  /** The slot holding (high, low), or the empty slot where it would go. */
  private find(high: number, low: number): number {
    const slots = this.slots;
    let slot = hash(high, low) & this.mask;
    for (;;) {
      const h = slots[slot * 2]!;
      const l = slots[slot * 2 + 1]!;
      if ((h === high && l === low) || (h === 0 && l === 0)) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = old.length - 1;
    for (let at = 0; at < old.length; at += 2) {
      const high = old[at]!;
      const low = old[at + 1]!;
      if (high === 0 && low === 0) continue;
      const slot = this.find(high, low) * 2;
      this.slots[slot] = high;
      this.slots[slot + 1] = low;
    }
  }
}

/** An int64's high and low 32 bits, each as an int32; exact for every safe integer (a division by 2^32 and ToUint32 lose no bits). */
function halves(value: number | bigint): [high: number, low: number] {
  if (typeof value === 'number') return [Math.floor(value / TWO_32) | 0, value | 0];
  return [Number(BigInt.asIntN(32, value >> 32n)), Number(BigInt.asIntN(32, value))];
}

/** MurmurHash3's 32-bit finaliser over both halves: ids that differ in their low bits only (most stores) still spread. */
function hash(high: number, low: number): number {
  let h = low ^ Math.imul(high, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
