/**
 * Excel 97–2003 (.xls) for the campaign's numbers file (SPEC §5 lists it beside .xlsx): a BIFF8 workbook
 * inside a Compound File (CFB). exceljs reads only xlsx, and the npm packages that read xls carry known
 * vulnerabilities, so this is a small reader of just what a sheet of phone numbers needs: the first
 * worksheet's text and number cells (shared strings, labels, numbers, RK/MULRK, formula results).
 *
 * An xls is not compressed: the whole file (at most the numbers file's byte limit) is held, and every
 * structure read from it is bounded by its size — sector chains are followed at most once per sector, so a
 * crafted file cannot loop or make more data than it holds.
 */

export class XlsUnreadable extends Error {}

const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const END_OF_CHAIN = 0xfffffffe;
const FREE_SECT = 0xffffffff;

/** True when the bytes start like a Compound File (an xls, a doc…). */
export function isCompoundFile(head: Buffer): boolean {
  return head.length >= 8 && head.subarray(0, 8).equals(CFB_SIGNATURE);
}

const bad = (why: string) => new XlsUnreadable(why);

/** The named stream of a Compound File (the first of `names` found, any case), or null. */
export function compoundFileStream(file: Buffer, names: string[]): Buffer | null {
  if (file.length < 512 || !isCompoundFile(file)) throw bad('não é um arquivo do Excel 97–2003');
  const sectorShift = file.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) throw bad('tamanho de setor inválido');
  const sectorSize = 1 << sectorShift;
  const miniShift = file.readUInt16LE(0x20);
  if (miniShift !== 6) throw bad('tamanho de minissetor inválido');
  const sectors = Math.floor((file.length - sectorSize) / sectorSize);
  const sector = (n: number) => {
    if (n >= sectors) throw bad('setor fora do arquivo');
    const at = (n + 1) * sectorSize;
    return file.subarray(at, at + sectorSize);
  };

  // The FAT's sectors: 109 in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) fatSectors.push(file.readUInt32LE(0x4c + i * 4));
  let difat = file.readUInt32LE(0x44);
  for (let hops = 0; difat !== END_OF_CHAIN && difat !== FREE_SECT; hops++) {
    if (hops > sectors) throw bad('cadeia DIFAT em laço');
    const s = sector(difat);
    for (let i = 0; i < sectorSize / 4 - 1; i++) fatSectors.push(s.readUInt32LE(i * 4));
    difat = s.readUInt32LE(sectorSize - 4);
  }
  const fatCount = file.readUInt32LE(0x2c);
  const fat: number[] = [];
  for (const n of fatSectors.filter((n) => n !== FREE_SECT).slice(0, fatCount)) {
    const s = sector(n);
    for (let i = 0; i < sectorSize / 4; i++) fat.push(s.readUInt32LE(i * 4));
  }
  /** A chain's sectors joined; each sector visited at most once. */
  const chain = (start: number, table: number[], read: (n: number) => Buffer): Buffer => {
    const parts: Buffer[] = [];
    const seen = new Set<number>();
    for (let n = start; n !== END_OF_CHAIN; n = table[n] ?? END_OF_CHAIN) {
      if (n === FREE_SECT || seen.has(n) || n >= table.length) throw bad('cadeia de setores inválida');
      seen.add(n);
      parts.push(read(n));
    }
    return Buffer.concat(parts);
  };

  const directory = chain(file.readUInt32LE(0x30), fat, sector);
  const entries: { name: string; type: number; start: number; size: number }[] = [];
  for (let at = 0; at + 128 <= directory.length; at += 128) {
    const nameBytes = Math.min(64, directory.readUInt16LE(at + 64));
    const name = directory.subarray(at, at + Math.max(0, nameBytes - 2)).toString('utf16le');
    entries.push({ name, type: directory[at + 66]!, start: directory.readUInt32LE(at + 116), size: directory.readUInt32LE(at + 120) });
  }
  const root = entries[0];
  if (!root || root.type !== 5) throw bad('diretório sem raiz');
  const wanted = names.map((n) => n.toLowerCase());
  const entry = entries.find((e) => e.type === 2 && wanted.includes(e.name.toLowerCase()));
  if (!entry) return null;
  if (entry.size > file.length) throw bad('fluxo maior que o arquivo');
  const cutoff = file.readUInt32LE(0x38);
  if (entry.size >= cutoff) return chain(entry.start, fat, sector).subarray(0, entry.size);
  // A small stream lives in the mini stream (the root's chain), in 64-byte mini sectors.
  const miniStream = chain(root.start, fat, sector);
  const miniFatBytes = file.readUInt32LE(0x3c) === END_OF_CHAIN ? Buffer.alloc(0) : chain(file.readUInt32LE(0x3c), fat, sector);
  const miniFat: number[] = [];
  for (let i = 0; i + 4 <= miniFatBytes.length; i += 4) miniFat.push(miniFatBytes.readUInt32LE(i));
  const miniSector = (n: number) => {
    if ((n + 1) * 64 > miniStream.length) throw bad('minissetor fora do arquivo');
    return miniStream.subarray(n * 64, (n + 1) * 64);
  };
  return chain(entry.start, miniFat, miniSector).subarray(0, entry.size);
}

interface BiffRecord {
  type: number;
  data: Buffer;
  /** Where the record starts in the stream (BOUNDSHEET points at a sheet's BOF by this offset). */
  at: number;
}

function* records(stream: Buffer, from = 0): Generator<BiffRecord> {
  let at = from;
  while (at + 4 <= stream.length) {
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt16LE(at + 2);
    if (at + 4 + length > stream.length) throw bad('registro cortado');
    yield { type, data: stream.subarray(at + 4, at + 4 + length), at };
    at += 4 + length;
  }
}

const R = {
  BOF: 0x0809,
  EOF: 0x000a,
  FILEPASS: 0x002f,
  BOUNDSHEET: 0x0085,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  RSTRING: 0x00d6,
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
  FORMULA: 0x0006,
  STRING: 0x0207,
  BOOLERR: 0x0205,
} as const;

/** Reads the shared strings across the SST record and its CONTINUE records (a string may be split by one). */
class Segments {
  private i = 0;
  private off = 0;
  constructor(private readonly segs: Buffer[]) {}
  private get seg(): Buffer {
    return this.segs[this.i] ?? Buffer.alloc(0);
  }
  /** At the end of a segment, step into the next one (a string that starts there has no extra flags byte). */
  private advance(): void {
    while (this.i < this.segs.length && this.off >= this.seg.length) {
      this.i++;
      this.off = 0;
    }
    if (this.i >= this.segs.length) throw bad('tabela de textos cortada');
  }
  u8(): number {
    this.advance();
    return this.seg[this.off++]!;
  }
  u16(): number {
    return this.u8() | (this.u8() << 8);
  }
  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }
  skip(n: number): void {
    let left = n;
    while (left > 0) {
      this.advance();
      const take = Math.min(left, this.seg.length - this.off);
      this.off += take;
      left -= take;
    }
  }
  /** An XLUnicodeRichExtendedString; the characters may go on in the next segment after a new flags byte. */
  string(): string {
    const cch = this.u16();
    const flags = this.u8();
    let high = (flags & 1) === 1;
    const runs = flags & 8 ? this.u16() : 0;
    const ext = flags & 4 ? this.u32() : 0;
    let out = '';
    let left = cch;
    while (left > 0) {
      if (this.off >= this.seg.length) {
        this.advance();
        high = (this.seg[this.off++]! & 1) === 1;
        continue;
      }
      const avail = this.seg.length - this.off;
      const take = Math.min(left, high ? Math.floor(avail / 2) : avail);
      if (take === 0) throw bad('texto cortado');
      const bytes = this.seg.subarray(this.off, this.off + take * (high ? 2 : 1));
      out += high ? bytes.toString('utf16le') : bytes.toString('latin1');
      this.off += bytes.length;
      left -= take;
    }
    this.skip(runs * 4 + ext);
    return out;
  }
}

/** An XLUnicodeString inside one record (LABEL, STRING), from `at`. */
function unicodeString(data: Buffer, at: number): string {
  if (at + 3 > data.length) return '';
  const cch = data.readUInt16LE(at);
  const high = (data[at + 2]! & 1) === 1;
  const bytes = data.subarray(at + 3, at + 3 + cch * (high ? 2 : 1));
  return high ? bytes.toString('utf16le') : bytes.toString('latin1');
}

/** An RK number: an int30 or the top 30 bits of a double, maybe ×100. */
function rkValue(rk: number): number {
  let v: number;
  if (rk & 2) v = rk >> 2;
  else {
    const b = Buffer.alloc(8);
    b.writeUInt32LE((rk & 0xfffffffc) >>> 0, 4);
    v = b.readDoubleLE(0);
  }
  return rk & 1 ? v / 100 : v;
}

export interface XlsLimits {
  /** Rows of the first worksheet (with at least one cell). */
  maxRows: number;
  /** Columns kept per row. */
  maxColumns: number;
}

/**
 * The first worksheet's rows, in row order, as cell values (strings and numbers; an empty cell is '').
 * Throws XlsUnreadable (with why) for what is not a BIFF8 workbook, and `tooManyRows()` past the limit.
 */
export function xlsRows(file: Buffer, limits: XlsLimits, tooManyRows: () => Error): unknown[][] {
  const stream = compoundFileStream(file, ['Workbook', 'Book']);
  if (!stream) throw bad('não há planilha no arquivo');
  const globals = records(stream);
  const first = globals.next();
  // BIFF8 (Excel 97 and later): BOF version 0x0600. Excel 5/95 files ("Book") are older.
  if (first.done || first.value.type !== R.BOF || first.value.data.length < 2 || first.value.data.readUInt16LE(0) !== 0x0600) throw bad('versão do Excel anterior a 97');
  let sheetAt: number | null = null;
  const sst: string[] = [];
  let sstSegments: Buffer[] | null = null;
  const flushSst = () => {
    if (!sstSegments) return;
    const seg = new Segments(sstSegments);
    seg.skip(4);
    const unique = seg.u32();
    for (let i = 0; i < unique; i++) sst.push(seg.string());
    sstSegments = null;
  };
  for (const rec of globals) {
    if (rec.type === R.CONTINUE && sstSegments) {
      sstSegments.push(rec.data);
      continue;
    }
    flushSst();
    if (rec.type === R.EOF) break;
    if (rec.type === R.FILEPASS) throw bad('a planilha está protegida por senha');
    if (rec.type === R.BOUNDSHEET && sheetAt === null && rec.data.length >= 6 && rec.data[5] === 0) sheetAt = rec.data.readUInt32LE(0);
    if (rec.type === R.SST) sstSegments = [rec.data];
  }
  flushSst();
  if (sheetAt === null) throw bad('não há planilha no arquivo');

  const rows = new Map<number, unknown[]>();
  const put = (row: number, col: number, value: unknown) => {
    if (col >= limits.maxColumns) return;
    let cells = rows.get(row);
    if (!cells) {
      if (rows.size >= limits.maxRows) throw tooManyRows();
      cells = [];
      rows.set(row, cells);
    }
    while (cells.length < col) cells.push('');
    cells[col] = value;
  };
  /** The row and column of a FORMULA whose text result comes in the next STRING record. */
  let pendingString: [number, number] | null = null;
  const sheet = records(stream, sheetAt);
  const bof = sheet.next();
  if (bof.done || bof.value.type !== R.BOF) throw bad('planilha não encontrada no arquivo');
  for (const { type, data } of sheet) {
    if (type === R.EOF) break;
    if (data.length < 6 && type !== R.STRING) continue;
    const row = data.length >= 4 ? data.readUInt16LE(0) : 0;
    const col = data.length >= 4 ? data.readUInt16LE(2) : 0;
    switch (type) {
      case R.LABELSST:
        if (data.length >= 10) put(row, col, sst[data.readUInt32LE(6)] ?? '');
        break;
      case R.LABEL:
      case R.RSTRING:
        put(row, col, unicodeString(data, 6));
        break;
      case R.NUMBER:
        if (data.length >= 14) put(row, col, data.readDoubleLE(6));
        break;
      case R.RK:
        if (data.length >= 10) put(row, col, rkValue(data.readUInt32LE(6)));
        break;
      case R.MULRK:
        for (let at = 4, c = col; at + 6 <= data.length - 2; at += 6, c++) put(row, c, rkValue(data.readUInt32LE(at + 2)));
        break;
      case R.BOOLERR:
        if (data.length >= 8) put(row, col, data[7] ? '' : data[6] ? 'TRUE' : 'FALSE');
        break;
      case R.FORMULA:
        if (data.length < 14) break;
        if (data.readUInt16LE(12) !== 0xffff) put(row, col, data.readDoubleLE(6));
        else if (data[6] === 0) pendingString = [row, col];
        else if (data[6] === 1) put(row, col, data[8] ? 'TRUE' : 'FALSE');
        break;
      case R.STRING:
        if (pendingString) put(pendingString[0], pendingString[1], unicodeString(data, 0));
        pendingString = null;
        break;
      default:
        break;
    }
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, cells]) => cells);
}
