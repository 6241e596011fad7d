/** The default `log` of the library's jobs: a library call prints nothing unless its caller hands in a `log`. */
export function silent(_line: string): void {}
