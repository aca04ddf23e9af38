/**
 * The cluster tests' worker process: activities/worker.ts with one difference, the WhatsApp QR sockets
 * reach the test's WhatsappWebFake (WHATSAPP_WEB_FAKE_URL) instead of WhatsApp through Baileys
 * (test/fakes/whatsappWeb.ts). Everything else — both Temporal workers, the session queue, the reconciles,
 * the sweeps — is the worker's own code (activities/workerProcess.ts).
 */
import { runWorkerProcess } from '../../../activities/workerProcess';
import { loopbackQrSocketFactory } from '../../fakes/whatsappWeb';

const url = process.env.WHATSAPP_WEB_FAKE_URL;
if (!url) throw new Error('WHATSAPP_WEB_FAKE_URL is not set');
runWorkerProcess({ qrSocketFactory: () => loopbackQrSocketFactory(url) });
