// The iteration order of Java's HashMap and HashSet, for assignors whose
// result depends on it (Kafka's share-group SimpleAssignor walks hash maps of
// member indices and partitions): buckets in ascending index, where a key's
// bucket is (h ^ (h >>> 16)) & (capacity - 1), and insertion order within a
// bucket. The table doubles when its size passes 0.75 of its capacity and
// never shrinks. (Java turns a bucket of 8 into a tree; assignor inputs never
// collide that much.)

/** String#hashCode: sum of s[i]·31^(n-1-i) over UTF-16 code units, in int32. */
export function stringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** Uuid#hashCode of a topic id (the cluster's 8-4-4-4-12 hex form): (int)(x >> 32) ^ (int)x, x = msb ^ lsb. */
export function uuidHash(topicId: string): number {
  const b = Buffer.from(topicId.replace(/-/g, ''), 'hex');
  if (b.length !== 16) return stringHash(topicId);
  return b.readInt32BE(0) ^ b.readInt32BE(4) ^ b.readInt32BE(8) ^ b.readInt32BE(12);
}

/** TopicIdPartition#hashCode (a Java record of a Uuid and an int). */
export function topicIdPartitionHash(topicId: string, partition: number): number {
  return (Math.imul(31, uuidHash(topicId)) + partition) | 0;
}

/** HashMap#tableSizeFor: the power of two at or above n. */
function tableSizeFor(n: number): number {
  let cap = 1;
  while (cap < n) cap *= 2;
  return cap;
}

/** The initial capacity of `new HashMap<>(n)`. */
export const withInitialCapacity = (n: number) => tableSizeFor(Math.max(1, n));
/** AssignorHelpers#newHashMap(n) and #newHashSet(n): room for n without a resize. */
export const sizedFor = (n: number) => withInitialCapacity(Math.trunc((n + 1) / 0.75 + 1));
/** `new HashSet<>(collection)`: max(size / .75 + 1, 16). */
export const copiedFrom = (n: number) => withInitialCapacity(Math.max(Math.trunc(n / 0.75) + 1, 16));
export const DEFAULT_CAPACITY = 16;

/** A Java HashMap's keys and values, iterated in the order Java iterates them. */
export class JavaHashMap<K, V> {
  private readonly entries = new Map<K, { value: V; seq: number }>();
  private seq = 0;

  constructor(
    private readonly hash: (key: K) => number,
    private capacity = DEFAULT_CAPACITY,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: K, value: V): void {
    const e = this.entries.get(key);
    if (e) {
      e.value = value;
      return;
    }
    this.entries.set(key, { value, seq: this.seq++ });
    while (this.entries.size > this.capacity * 0.75) this.capacity *= 2;
  }

  computeIfAbsent(key: K, make: () => V): V {
    if (!this.entries.has(key)) this.set(key, make());
    return this.get(key)!;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** The keys in Java's iteration order, as of now. */
  keys(): K[] {
    const mask = this.capacity - 1;
    const bucket = (k: K) => {
      const h = this.hash(k);
      return (h ^ (h >>> 16)) & mask;
    };
    return [...this.entries]
      .map(([k, e]) => ({ k, b: bucket(k), seq: e.seq }))
      .sort((x, y) => x.b - y.b || x.seq - y.seq)
      .map((x) => x.k);
  }

  entriesInOrder(): [K, V][] {
    return this.keys().map((k) => [k, this.get(k)!]);
  }
}

/** A Java HashSet (a HashMap of its elements). */
export class JavaHashSet<K> {
  private readonly map: JavaHashMap<K, true>;

  constructor(hash: (key: K) => number, capacity = DEFAULT_CAPACITY) {
    this.map = new JavaHashMap(hash, capacity);
  }

  get size(): number {
    return this.map.size;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  add(key: K): void {
    this.map.set(key, true);
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  values(): K[] {
    return this.map.keys();
  }
}

export const integerHash = (n: number) => n | 0;
