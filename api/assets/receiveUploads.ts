import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { errors, type FieldError } from '../http/errors';
import type { FileStorage } from '../storage/storage';
import { newStorageKey } from '../storage/keys';
import { classifyContent } from './classifyContent';
import { ContentInspector } from './contentInspector';
import { sanitizeFileName } from './fileNames';
import { discardRestOfForm, invalidMultipart, multipartParser } from './multipart';
import { insertStoredFiles, type StoredFileRow } from './queries';
import { remuxRecordedVoiceNote } from './storedVoiceNote';
import type { Logger } from '../logger';
import { admitUpload, budgetGuard } from './storageBudgets';

/** SPEC §9 file limit. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;
/** Multipart framing around the files (boundaries, part headers): not stored, so not held against a budget. */
const MULTIPART_SLACK = 4096;
const FILE_TOO_LARGE = 'O arquivo excede o limite de 16 MB.';
const TYPE_REFUSED = 'Tipo de arquivo não permitido.';

export interface UploadOptions {
  workspaceId: number;
  /** The uploading operator; null for a widget visitor. */
  operatorId: number | null;
  /** The widget visitor uploading, whose and whose channel's storage budgets apply too. */
  visitor?: { channelId: number; visitorId: string };
  /** Which multipart fields carry files (others are read and dropped). */
  fieldPattern: RegExp;
  maxFiles: number;
  /** Where a voice note kept as WebM (its remux to Ogg failed) is reported. */
  logger?: Logger;
  /** Receives the form's other fields (a contract import's `code`); without it they are dropped. */
  onField?: (name: string, value: string) => void;
  /** A form without files answers [] instead of 'Envie ao menos um arquivo.' (the caller reports it with its other fields). */
  allowNone?: boolean;
}

interface Received {
  field: string;
  /** Position of the file in the form (files finish storing in any order). */
  order: number;
  key: string;
  fileName: string;
  mime?: string;
  size: number;
  sha256: string;
}

/**
 * Reads a multipart upload straight into storage, checking each file's type from its bytes while it
 * streams, then records the stored_files rows in one transaction. Any failure (a file over 16 MB, a
 * refused type, a broken request, a storage budget passed) removes every object this request stored and
 * writes no row. The budgets (storageBudgets.ts) are checked before a byte is read, against the declared
 * length, and again exactly when the rows are recorded.
 */
export async function receiveUploads(
  deps: { knex: Knex; storage: FileStorage },
  req: IncomingMessage,
  options: UploadOptions,
): Promise<StoredFileRow[]> {
  if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
    throw errors.badRequest('Envie os arquivos como multipart/form-data.');
  }
  // A declared body bigger than every allowed file together is refused before reading a byte of it.
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > options.maxFiles * MAX_FILE_BYTES + 1024 * 1024) throw errors.payloadTooLarge(FILE_TOO_LARGE);

  const scope = { workspaceId: options.workspaceId, ...(options.visitor ? { visitor: options.visitor } : {}) };
  const atMost = declared > 0 ? Math.max(0, declared - MULTIPART_SLACK) : options.maxFiles * MAX_FILE_BYTES;
  const release = await admitUpload(deps.knex, scope, atMost);
  const stored: string[] = [];
  try {
    const received = await streamToStorage(deps.storage, req, options, stored);
    const refused: FieldError[] = [];
    for (const file of received) if (!file.mime) refused.push({ key: file.field, descriptions: [TYPE_REFUSED] });
    if (refused.length) throw errors.validation(refused);
    if (!received.length) {
      if (options.allowNone) return [];
      throw errors.field('file0', 'Envie ao menos um arquivo.');
    }
    const bytes = received.reduce((sum, f) => sum + f.size, 0);
    return await insertStoredFiles(
      deps.knex,
      received.map((f) => ({
        workspaceId: options.workspaceId,
        operatorId: options.operatorId,
        channelId: options.visitor?.channelId ?? null,
        visitorId: options.visitor?.visitorId ?? null,
        key: f.key,
        fileName: f.fileName,
        mime: f.mime!,
        size: f.size,
        sha256: f.sha256,
      })),
      budgetGuard(scope, bytes),
    );
  } catch (err) {
    await Promise.all(stored.map((key) => deps.storage.delete(key).catch(() => undefined)));
    throw err;
  } finally {
    release();
  }
}

function streamToStorage(storage: FileStorage, req: IncomingMessage, options: UploadOptions, stored: string[]): Promise<Received[]> {
  return new Promise((resolve, reject) => {
    const received: Received[] = [];
    let parts = 0;
    const pending: Promise<unknown>[] = [];
    const active = new Set<ContentInspector>();
    let failed = false;

    const parser = multipartParser(req, {
      defParamCharset: 'utf8',
      // busboy reports 'limit' on reaching the limit, so one byte more lets a file of exactly 16 MB through.
      limits: { fileSize: MAX_FILE_BYTES + 1, files: options.maxFiles, fields: 20, fieldSize: 4096, parts: options.maxFiles + 20 },
    });

    // Stop parsing and storing at the first fatal problem (the rest of the body is discarded up to a cap).
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      discardRestOfForm(req, parser, MAX_DISCARD_BYTES);
      for (const inspector of active) inspector.destroy(new Error('upload aborted'));
      void Promise.allSettled(pending).then(() => reject(err));
    };

    parser.on('file', (field: string, file: Readable, info: { filename?: string }) => {
      // An empty file input arrives as a part without a file name: nothing was chosen.
      if (failed || !options.fieldPattern.test(field) || !info.filename) {
        file.resume();
        return;
      }
      const order = parts++;
      const key = newStorageKey();
      const fileName = sanitizeFileName(info.filename);
      const inspector = new ContentInspector();
      // Its errors reach us through storage.put; this keeps one raised before put listens from escaping.
      inspector.on('error', () => undefined);
      active.add(inspector);
      file.on('limit', () => {
        file.unpipe(inspector);
        file.resume();
        fail(errors.payloadTooLarge(FILE_TOO_LARGE));
      });
      // A form that ends mid-file errors the file stream; fail() then also stops this file's write.
      file.on('error', () => fail(invalidMultipart()));
      file.pipe(inspector);
      const work = storage
        .put(key, inspector)
        .then(async ({ size }) => {
          stored.push(key);
          const facts = inspector.facts();
          const kind = await classifyContent(facts, fileName);
          if (kind.accepted && options.operatorId !== null && !options.visitor) {
            // An operator's recorded voice note (WebM/Opus) is stored as Ogg/Opus (storedVoiceNote.ts).
            const note = await remuxRecordedVoiceNote(storage, { key, fileName, mime: kind.mime, size, sha256: facts.sha256 }, options.logger);
            if (note.key !== key) stored.push(note.key);
            received.push({ field, order, ...note });
            return;
          }
          received.push({ field, order, key, fileName, size, sha256: facts.sha256, mime: kind.accepted ? kind.mime : undefined });
        })
        .catch((err: unknown) => fail(err))
        .finally(() => active.delete(inspector));
      pending.push(work);
    });
    if (options.onField) parser.on('field', (name: string, value: string) => options.onField!(name, value));
    parser.on('filesLimit', () => fail(errors.badRequest(`Envie no máximo ${options.maxFiles} arquivos por vez.`)));
    parser.on('error', () => fail(invalidMultipart()));
    parser.on('close', () => {
      void Promise.allSettled(pending).then(() => {
        if (!failed) resolve(received.sort((a, b) => fieldOrder(a.field) - fieldOrder(b.field) || a.order - b.order));
      });
    });
    req.on('aborted', () => fail(errors.badRequest('Envio interrompido.')));
    req.on('error', () => fail(errors.badRequest('Envio interrompido.')));
    req.pipe(parser);
  });
}

function fieldOrder(field: string): number {
  const n = /(\d+)$/.exec(field);
  return n ? Number(n[1]) : 0;
}
