import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { errors } from '../http/errors';
import { createStorage } from '../storage/storage';
import { readFileColumns, UploadQuerySchema } from '../campaigns/fileColumns';
import { numbersFileKind } from '../campaigns/numbersFileKind';
import { parseQuery } from '../http/validate';
import { isStorageKey } from '../storage/keys';
import { isInlineMedia } from './classifyContent';
import { contentDisposition } from './fileNames';
import { presentStoredFile } from './presenters';
import { findStoredFileByKey } from './queries';
import { receiveUploads } from './receiveUploads';
import { sendStoredObject } from './sendStoredObject';
import { verifyDownloadSignature } from './signedUrl';

const MAX_FILES_PER_UPLOAD = 10;

/** POST /assets/upload (multipart file0, file1…) and GET /assets/download/:key?exp&sig (docs/api/inbox.md). */
export function assetsRouter(deps: AppDeps) {
  const router = new Router();
  const storage = createStorage(deps.config);

  router.post('/assets/upload', authenticate(deps), async (ctx) => {
    const actor = actorOf(ctx);
    const query = parseQuery(ctx, UploadQuerySchema);
    const rows = await receiveUploads({ knex: deps.knex, storage }, ctx.req, {
      workspaceId: actor.workspaceId,
      operatorId: actor.operatorId,
      fieldPattern: /^file\d{1,2}$/,
      maxFiles: MAX_FILES_PER_UPLOAD,
      logger: deps.logger,
    });
    // `?columns=1` (the campaign wizard): a numbers file also answers its column headers and first row.
    const data = await Promise.all(
      rows.map(async (row) => {
        const file = presentStoredFile(deps.config, row);
        if (query.columns !== '1' || !numbersFileKind(row.fileName)) return file;
        const object = await storage.get(row.key);
        if (!object) return { ...file, columns: null };
        try {
          return { ...file, columns: await readFileColumns(row.fileName, object.stream) };
        } finally {
          object.stream.destroy();
        }
      }),
    );
    ctx.status = 201;
    ctx.body = { data };
  });

  // The signed URL is the credential (links open in new tabs, <img> and the widget carry no token); any
  // fault in it is a 404 so a probe learns nothing about which keys exist.
  router.get('/assets/download/:key', async (ctx) => {
    const key = String(ctx.params.key);
    if (!isStorageKey(key) || !verifyDownloadSignature(deps.config, key, ctx.query.exp, ctx.query.sig)) throw errors.notFound();
    const row = await findStoredFileByKey(deps.knex, key);
    const object = row && (await storage.get(key));
    if (!row || !object) throw errors.notFound();
    sendStoredObject(ctx, object, {
      contentType: row.mime.startsWith('text/') ? `${row.mime}; charset=utf-8` : row.mime,
      disposition: contentDisposition(row.fileName, isInlineMedia(row.mime)),
      inlineStyles: true,
      cacheControl: 'private, max-age=3600',
    });
  });

  return router;
}
