/**
 * The worker process (`npm run worker`): the workflows of `workflows/` and the activities of `activities/`
 * on one task queue (activities/workerProcess.ts), with Baileys opening the WhatsApp QR sockets.
 */
import { baileysSocketFactory } from './channels/whatsapp/baileysSocket';
import { runWorkerProcess } from './workerProcess';

runWorkerProcess({ qrSocketFactory: baileysSocketFactory });
