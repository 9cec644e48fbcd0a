/**
 * The scanner could not finish (its thread stopped: out of memory, a fault). Nothing is wrong with the package, so
 * the readers pass this on rather than refuse the archive, and the same package, sent again, is scanned anew.
 */
export class ScanFailed extends Error {
  constructor(cause: unknown) {
    super(`The package scan stopped before it finished (${cause instanceof Error ? cause.message : String(cause)}).`, { cause });
    this.name = 'ScanFailed';
  }
}
