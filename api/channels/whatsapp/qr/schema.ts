import { z } from 'zod';

/** POST /integrations/restart ('Reiniciar' on a QR line). Browser code may import this file: zod only. */
export const QrRestartSchema = z.object({
  id: z.number({ error: 'Informe o canal.' }).int('Identificador inválido.').positive('Identificador inválido.').max(2_147_483_647, 'Identificador inválido.'),
});
export type QrRestartReq = z.infer<typeof QrRestartSchema>;
