import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { normalizeCampaignPhone } from '../../api/campaigns/phone';
import { compoundFileStream } from '../../activities/campaigns/xlsReader';
import { DEFAULT_NUMBERS_FILE_LIMITS, NumbersFileRefused, numbersFileKind, readNumbersFile, zipUnpackedSize, type NumbersFileKind } from '../../activities/campaigns/numbersFile';

async function rows(kind: NumbersFileKind, bytes: Buffer | AsyncIterable<Buffer>, limits = DEFAULT_NUMBERS_FILE_LIMITS): Promise<string[][]> {
  const source = Buffer.isBuffer(bytes) ? (async function* () { yield bytes; })() : bytes;
  const out: string[][] = [];
  for await (const r of readNumbersFile(kind, source, limits)) out.push(r);
  return out;
}

/** The .xls fixtures, made by Excel-compatible writer xlwt (fixtures/make_xls.py). */
const fixture = (name: string) => readFileSync(path.join(__dirname, 'fixtures', name));

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(NumbersFileRefused);
    return (err as Error).message;
  }
  throw new Error('expected the file to be refused');
}

async function xlsx(data: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Números');
  for (const r of data) sheet.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A zip of one stored-deflate entry, built by hand (local header, data, central directory, end record). */
function zipOf(name: string, content: Buffer): Buffer {
  const data = deflateRawSync(content);
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const cdOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

/**
 * The Workbook stream of an .xls (xlwt pads it to 4096 bytes) without its padding, repacked in a Compound
 * File as Excel does a small workbook: in the mini stream (64-byte mini sectors under the 4096-byte cutoff).
 */
function inMiniStream(xls: Buffer): Buffer {
  const workbook = compoundFileStream(xls, ['Workbook'])!;
  let end = 0;
  while (end + 4 <= workbook.length && !(workbook.readUInt16LE(end) === 0 && workbook.readUInt16LE(end + 2) === 0)) end += 4 + workbook.readUInt16LE(end + 2);
  const stream = workbook.subarray(0, end);
  const minis = Math.ceil(stream.length / 64);
  const containers = Math.ceil((minis * 64) / 512);
  const [END, FREE, FATSECT] = [0xfffffffe, 0xffffffff, 0xfffffffd];
  const header = Buffer.alloc(512, 0);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c); // one FAT sector (sector 0)
  header.writeUInt32LE(1, 0x30); // the directory in sector 1
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(2, 0x3c); // the mini FAT in sector 2
  header.writeUInt32LE(1, 0x40);
  header.writeUInt32LE(END, 0x44);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 0 : FREE, 0x4c + i * 4);
  const fat = Buffer.alloc(512, 0xff);
  fat.writeUInt32LE(FATSECT, 0);
  fat.writeUInt32LE(END, 4);
  fat.writeUInt32LE(END, 8);
  for (let i = 0; i < containers; i++) fat.writeUInt32LE(i === containers - 1 ? END : 4 + i, (3 + i) * 4);
  const entry = (name: string, type: number, start: number, size: number, child = FREE) => {
    const e = Buffer.alloc(128, 0);
    e.write(`${name}\0`, 0, 'utf16le');
    e.writeUInt16LE((name.length + 1) * 2, 64);
    e[66] = type;
    e.writeUInt32LE(FREE, 68);
    e.writeUInt32LE(FREE, 72);
    e.writeUInt32LE(child, 76);
    e.writeUInt32LE(start, 116);
    e.writeUInt32LE(size, 120);
    return e;
  };
  const empty = () => Buffer.alloc(128, 0).fill(0xff, 68, 80);
  const directory = Buffer.concat([entry('Root Entry', 5, 3, minis * 64, 1), entry('Workbook', 2, 0, stream.length), empty(), empty()]);
  const miniFat = Buffer.alloc(512, 0xff);
  for (let i = 0; i < minis; i++) miniFat.writeUInt32LE(i === minis - 1 ? END : i + 1, i * 4);
  const mini = Buffer.alloc(containers * 512, 0);
  stream.copy(mini);
  return Buffer.concat([header, fat, directory, miniFat, mini]);
}

describe('campaign numbers: phone normalisation (libphonenumber-js, Brazilian variants)', () => {
  it('reads the mask, digits with and without 55, 00 and the + form as the same E.164 digits', () => {
    for (const v of ['+55 (11) 91234-5678', '5511912345678', '11912345678', '(11) 91234-5678', '0055 11 91234 5678', '+5511912345678']) {
      expect(normalizeCampaignPhone(v), v).to.equal('5511912345678');
    }
  });

  it('adds the extra 9 to a mobile written without it, keeps landlines as they are', () => {
    expect(normalizeCampaignPhone('551181234567')).to.equal('5511981234567');
    expect(normalizeCampaignPhone('(21) 8765-4321')).to.equal('5521987654321');
    expect(normalizeCampaignPhone('(11) 3333-4444')).to.equal('551133334444');
  });

  it('keeps other countries and refuses what is not a phone', () => {
    expect(normalizeCampaignPhone('+1 415 555 2671')).to.equal('14155552671');
    for (const v of ['', 'abc', '5511912345', '123', 'telefone', '+55 11 91234-5678 ramal 2', '9'.repeat(20)]) expect(normalizeCampaignPhone(v), v).to.equal(null);
  });
});

describe('campaign numbers file: streaming readers of every format', () => {
  it('knows the kind by extension, whatever the case', () => {
    expect(['a.CSV', 'b.txt', 'c.xlsx', 'd.XLS', 'e.xml', 'f.pdf', 'g'].map(numbersFileKind)).to.deep.equal(['csv', 'txt', 'xlsx', 'xls', 'xml', null, null]);
  });

  it('csv: Brazilian Excel ";" with a BOM and quoted cells; "," and tab files too', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const semi = Buffer.concat([bom, Buffer.from('telefone;nome;cidade\r\n5511912345678;"Ana; Maria";São Paulo\r\n\r\n(21) 98765-4321;Bruno;\r\n')]);
    expect(await rows('csv', semi)).to.deep.equal([['telefone', 'nome', 'cidade'], ['5511912345678', 'Ana; Maria', 'São Paulo'], ['(21) 98765-4321', 'Bruno', '']]);
    expect(await rows('csv', Buffer.from('5511912345678,Ana\n5521987654321,Bruno\n'))).to.deep.equal([['5511912345678', 'Ana'], ['5521987654321', 'Bruno']]);
    expect(await rows('csv', Buffer.from('5511912345678\tAna\n'))).to.deep.equal([['5511912345678', 'Ana']]);
  });

  it('txt: one number per line, split across chunks', async () => {
    const chunks = ['55119123', '45678\n5521', '987654321\n'].map((s) => Buffer.from(s));
    expect(await rows('txt', (async function* () { yield* chunks; })())).to.deep.equal([['5511912345678'], ['5521987654321']]);
  });

  it('xlsx: the first sheet, numbers stored as numbers come back whole (not 5.5e12)', async () => {
    const file = await xlsx([['Telefone', 'Nome'], [5511912345678, 'Ana'], ['+55 21 98765-4321', 'Bruno']]);
    expect(await rows('xlsx', file)).to.deep.equal([['Telefone', 'Nome'], ['5511912345678', 'Ana'], ['+55 21 98765-4321', 'Bruno']]);
  });

  it('xml: records with fields, or a flat list of numbers; entities of XML itself decoded', async () => {
    const nested = '<?xml version="1.0"?><contatos><contato><telefone>5511912345678</telefone><nome>Ana &amp; Cia</nome></contato><contato><telefone>5521987654321</telefone><nome>Bruno</nome></contato></contatos>';
    expect(await rows('xml', Buffer.from(nested))).to.deep.equal([['5511912345678', 'Ana & Cia'], ['5521987654321', 'Bruno']]);
    expect(await rows('xml', Buffer.from('<numeros><numero>5511912345678</numero><numero><![CDATA[5521987654321]]></numero></numeros>'))).to.deep.equal([['5511912345678'], ['5521987654321']]);
  });

  it('xml: a DOCTYPE (the door to entity expansion and external entities) is refused', async () => {
    const billionLaughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><numeros><numero>&lol2;</numero></numeros>';
    expect(await refusal(rows('xml', Buffer.from(billionLaughs)))).to.equal('O arquivo XML não pode ter DOCTYPE nem entidades.');
    const xxe = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><numeros><numero>&xxe;</numero></numeros>';
    expect(await refusal(rows('xml', Buffer.from(xxe)))).to.equal('O arquivo XML não pode ter DOCTYPE nem entidades.');
  });

  it('xml: malformed markup is refused with the reason', async () => {
    expect(await refusal(rows('xml', Buffer.from('<numeros><numero>1</numeros>')))).to.match(/^O arquivo XML é inválido: /);
  });

  it('xls (Excel 97–2003, SPEC §5): the first sheet, text and number cells, numbers whole (not 5.5e12)', async () => {
    expect(await rows('xls', fixture('numeros.xls'))).to.deep.equal([
      ['telefone', 'nome', 'pedido'],
      ['+55 (11) 98765-0001', 'Maria', 'pedido 1'],
      ['5511987650002', 'João', '2'],
      ['11 8765-0003', 'Zé Ção', '3.5'],
      ['12345', 'inválido'],
    ]);
  });

  it('xls: shared strings split across CONTINUE records (1- and 2-byte characters) come back whole, in row order', async () => {
    const read = await rows('xls', fixture('muitos.xls'));
    expect(read).to.have.length(700);
    read.forEach((r, i) => expect(r, `row ${i}`).to.deep.equal([`55119${String(i).padStart(8, '0')}`, i % 2 ? `Cliente ${i} ação` : `Cliente ${i} € conta`]));
  });

  it('xls: a small workbook kept in the Compound File\'s mini stream reads the same', async () => {
    const small = inMiniStream(fixture('numeros.xls'));
    expect(compoundFileStream(small, ['Workbook'])!.length).to.be.below(4096);
    expect(await rows('xls', small)).to.deep.equal(await rows('xls', fixture('numeros.xls')));
  });

  it('xls: an .xlsx saved with the old extension is read as xlsx; what is not a workbook is refused with the reason', async () => {
    expect(await rows('xls', await xlsx([['5511912345678', 'Ana']]))).to.deep.equal([['5511912345678', 'Ana']]);
    expect(await refusal(rows('xls', Buffer.from('5511912345678\n')))).to.equal('O arquivo não é uma planilha .xls válida.');
    const cut = fixture('numeros.xls').subarray(0, 1024);
    expect(await refusal(rows('xls', cut))).to.match(/^O arquivo não é uma planilha \.xls válida: /);
  });

  it('xlsx: a zip bomb (a few hundred KB unpacking past 100 MB) is refused from its directory, before unpacking', async () => {
    const name = 'xl/worksheets/sheet1.xml';
    const bomb = zipOf(name, Buffer.alloc(110 * 1024 * 1024, 0x20));
    expect(bomb.length).to.be.below(1024 * 1024);
    expect(zipUnpackedSize(bomb)).to.equal(110 * 1024 * 1024);
    // Its compressed bytes made invalid (deflate block type 3): a reader that unpacked anything would fail
    // on them (not a spreadsheet), so only the directory check can give the size refusal.
    const dataAt = 30 + name.length;
    bomb.fill(0xff, dataAt, bomb.length - 22 - 46 - name.length);
    const before = process.memoryUsage().rss;
    expect(await refusal(rows('xlsx', bomb))).to.equal('A planilha descompactada passa de 100 MB: envie um arquivo menor ou em .csv.');
    expect(process.memoryUsage().rss - before).to.be.below(50 * 1024 * 1024);
  });

  it('xlsx: a damaged sheet (its compressed bytes broken) is refused as not a spreadsheet instead of hanging the read', async function () {
    this.timeout(10_000);
    const file = await xlsx([['5511912345678', 'Ana'], ['5521987654321', 'Bruno']]);
    const name = 'xl/worksheets/sheet1.xml';
    const header = file.indexOf(Buffer.from(name)) - 30;
    expect(file.readUInt32LE(header)).to.equal(0x04034b50);
    const dataAt = header + 30 + file.readUInt16LE(header + 26) + file.readUInt16LE(header + 28);
    file.fill(0xff, dataAt, dataAt + 16);
    expect(await refusal(rows('xlsx', file))).to.equal('O arquivo não é uma planilha .xlsx válida.');
  });

  it('xlsx: a zip whose directory lies about the unpacked size is refused when unpacking passes the limit', async () => {
    const name = 'xl/worksheets/sheet1.xml';
    const liar = zipOf(name, Buffer.alloc(110 * 1024 * 1024, 0x20));
    // The central directory (after the data) claims 1 KB.
    liar.writeUInt32LE(1024, liar.length - 22 - 46 - name.length + 24);
    expect(zipUnpackedSize(liar)).to.equal(1024);
    const before = process.memoryUsage().rss;
    expect(await refusal(rows('xlsx', liar))).to.equal('A planilha descompactada passa de 100 MB: envie um arquivo menor ou em .csv.');
    expect(process.memoryUsage().rss - before).to.be.below(50 * 1024 * 1024);
  });

  it('xlsx: something that is not a zip is refused as not a spreadsheet', async () => {
    expect(await refusal(rows('xlsx', Buffer.from('5511912345678\n')))).to.equal('O arquivo não é uma planilha .xlsx válida.');
  });

  it('a 200 MB csv is refused after reading the limit, quickly and with bounded memory', async () => {
    const line = Buffer.from('5511912345678;Cliente com um nome razoavelmente comprido\n');
    const chunk = Buffer.concat(Array.from({ length: 1024 }, () => line));
    let produced = 0;
    async function* twoHundredMb() {
      while (produced < 200 * 1024 * 1024) {
        produced += chunk.length;
        yield chunk;
      }
    }
    const before = process.memoryUsage().rss;
    // Rows are consumed as they come; the read stops at maxBytes (20 MB) or maxRows, whichever first.
    const limits = { ...DEFAULT_NUMBERS_FILE_LIMITS, maxRows: 10_000_000 };
    let seen = 0;
    const message = await refusal((async () => {
      for await (const _ of readNumbersFile('csv', twoHundredMb(), limits)) seen++;
    })());
    expect(message).to.equal('O arquivo é grande demais: o limite é 20 MB.');
    expect(produced).to.be.below(25 * 1024 * 1024);
    expect(seen).to.be.greaterThan(100_000);
    expect(process.memoryUsage().rss - before).to.be.below(150 * 1024 * 1024);
  });

  it('refuses more rows than the limit in csv, xlsx, xml and xls', async () => {
    const limits = { ...DEFAULT_NUMBERS_FILE_LIMITS, maxRows: 3 };
    const list = ['5511912345671', '5511912345672', '5511912345673', '5511912345674'];
    const expected = 'O arquivo tem linhas demais: o limite é 3 linhas.';
    expect(await refusal(rows('csv', Buffer.from(list.join('\n')), limits))).to.equal(expected);
    expect(await refusal(rows('xlsx', await xlsx(list.map((p) => [p])), limits))).to.equal(expected);
    expect(await refusal(rows('xml', Buffer.from(`<n>${list.map((p) => `<p>${p}</p>`).join('')}</n>`), limits))).to.equal(expected);
    expect(await refusal(rows('xls', fixture('muitos.xls'), limits))).to.equal(expected);
  });
});
