/** Every workflow id comes from here (DESIGN.md §5); never build one inline. */
export const workflowIds = {
  botSession: (conversationId: number) => `bot-session:${conversationId}`,
  campaign: (campaignId: number) => `campaign:${campaignId}`,
  subscription: (subscriptionId: number) => `subscription:${subscriptionId}`,
  channel: (channelId: number) => `channel:${channelId}`,
  /** One outbound channel message (docs/outbound.md); not a child of `channel:` so Cloud lines need no connection workflow. */
  channelSend: (messageId: number | string) => `channel-send:${messageId}`,
  /** One socket-bound call of a QR line (number check, delete, typing) routed to the socket's worker (docs/outbound.md). */
  channelSocketCall: (channelId: number, callId: string) => `channel-call:${channelId}:${callId}`,
  /** One e-mail export of a report (docs/reports.md "Exports"). */
  reportExport: (workspaceId: number, uuid: string) => `report-export:${workspaceId}:${uuid}`,
  /** A scheduled report export's Temporal Schedule and the prefix of its runs' ids. */
  reportSchedule: (scheduleId: number) => `report-schedule:${scheduleId}`,
  /** One contract import: its files processed one after the other (docs/contracts.md). */
  contractImport: (workspaceId: number, importId: string) => `contract-import:${workspaceId}:${importId}`,
  /** One scheduled message: its timer, its sends and its repetitions (docs/scheduled-messages.md). */
  scheduledMessage: (scheduledMessageId: number) => `scheduled-message:${scheduledMessageId}`,
  webhook: (deliveryId: number | string) => `webhook:${deliveryId}`,
  child: (parentId: string, n: number) => `${parentId}/${n}`,
};
