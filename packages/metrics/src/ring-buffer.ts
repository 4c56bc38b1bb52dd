/** A fixed-capacity buffer that overwrites its oldest entry: memory stays constant however long it runs. */
export interface RingBuffer<T> {
  readonly capacity: number;
  readonly size: number;
  /** Appends, dropping the oldest entry when full. */
  push(value: T): void;
  /** Replaces the newest entry (or appends to an empty buffer). */
  replaceLast(value: T): void;
  /** The newest entry, if any. */
  last(): T | undefined;
  /** Entries oldest first. */
  toArray(): T[];
  clear(): void;
}

/** Creates a {@link RingBuffer} holding at most `capacity` entries. */
export function createRingBuffer<T>(capacity: number): RingBuffer<T> {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new RangeError(`A ring buffer needs a whole capacity of at least 1, not ${capacity}.`);
  }
  const slots = new Array<T | undefined>(capacity);
  let start = 0;
  let size = 0;
  return {
    capacity,
    get size() {
      return size;
    },
    push(value) {
      slots[(start + size) % capacity] = value;
      if (size < capacity) size += 1;
      else start = (start + 1) % capacity;
    },
    replaceLast(value) {
      if (size === 0) this.push(value);
      else slots[(start + size - 1) % capacity] = value;
    },
    last() {
      return size === 0 ? undefined : slots[(start + size - 1) % capacity];
    },
    toArray() {
      const values: T[] = [];
      for (let index = 0; index < size; index++) values.push(slots[(start + index) % capacity] as T);
      return values;
    },
    clear() {
      slots.fill(undefined);
      start = 0;
      size = 0;
    },
  };
}
