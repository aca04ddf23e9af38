/** Every workflow the worker runs (its `workflowsPath`); signals and queries travel with them. */
export * from './subscription/subscriptionLifecycle';
export * from './webhooks/webhookDelivery';
export * from './bots/botSession';
export * from './channels/channelSend';
export * from './channels/whatsappConnection';
export * from './channels/whatsappSocketCall';
export * from './campaigns/campaignRun';
export * from './reports/reportExport';
export * from './contracts/contractImport';
export * from './schedules/scheduledMessage';
