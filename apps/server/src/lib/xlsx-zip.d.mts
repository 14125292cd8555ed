/** Types of xlsx-zip.mjs (plain JavaScript, so the sheet worker thread loads it without a compiler). */
export class TooLarge extends Error {}
export class Unreadable extends Error {}
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  crc: number;
  /** The inflated size the headers declare. */
  size: number;
  /** The entry's bytes as stored. */
  data: Buffer;
}
export function writeZip(entries: readonly ZipEntry[]): Buffer;
export function zipForExcelJs(buffer: Buffer, maxEntryBytes: number): Promise<Buffer>;
