// snappyjs ships no types; the one function used here (raw Snappy block format, what remote write requires).
declare module 'snappyjs' {
  export function compress(input: Uint8Array): Uint8Array;
  export function uncompress(input: Uint8Array): Uint8Array;
}
