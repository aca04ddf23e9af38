/** A realtime event as it travels on the broker (DESIGN.md §6). */
export interface RealtimeEnvelope<T = unknown> {
  event: string;
  data: T;
  id: string;
  at: string;
}

export interface Publisher {
  /**
   * Never rejects for a delivery problem (events go out after commit; clients refetch on reconnect);
   * resolves to whether the broker took the event, so a sweep can retry what was not sent.
   */
  publish<T>(topic: string, event: string, data: T): Promise<boolean>;
  close(): Promise<void>;
}

/** Topic names come from here only. */
export const topics = {
  operator: (workspaceId: number, operatorId: number) => `ws/${workspaceId}/op/${operatorId}`,
  workspace: (workspaceId: number) => `ws/${workspaceId}/all`,
  widget: (channelIdentifier: string, visitorId: string) => `widget/${channelIdentifier}/${visitorId}`,
  /** A team chat room (docs/team-chat.md): its members only, checked against the room's membership on SUBSCRIBE. */
  teamRoom: (workspaceId: number, roomId: number) => `ws/${workspaceId}/team/${roomId}`,
};

const TEAM_ROOM_TOPIC = /^ws\/([1-9][0-9]{0,9})\/team\/([1-9][0-9]{0,9})$/;

/** The workspace and room of a team room topic; undefined for any other topic. */
export function parseTeamRoomTopic(topic: string): { workspaceId: number; roomId: number } | undefined {
  const m = TEAM_ROOM_TOPIC.exec(topic);
  if (!m) return undefined;
  const workspaceId = Number(m[1]);
  const roomId = Number(m[2]);
  return workspaceId <= 2_147_483_647 && roomId <= 2_147_483_647 ? { workspaceId, roomId } : undefined;
}
