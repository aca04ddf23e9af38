import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { errors } from '../http/errors';
import { createStorage } from '../storage/storage';
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
    const rows = await receiveUploads({ knex: deps.knex, storage }, ctx.req, {
      workspaceId: actor.workspaceId,
      operatorId: actor.operatorId,
      fieldPattern: /^file\d{1,2}$/,
      maxFiles: MAX_FILES_PER_UPLOAD,
      logger: deps.logger,
    });
    ctx.status = 201;
    ctx.body = { data: rows.map((row) => presentStoredFile(deps.config, row)) };
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
