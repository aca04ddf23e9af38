import type { Knex } from 'knex';

/**
 * Topics an operator may hear beyond their own two (docs/realtime.md), each family owned by the area that
 * publishes on it: today the team chat's rooms (api/teamChat/topicAccess.ts, docs/team-chat.md). An area
 * registers its family when it loads, as channels register their adapters, so the broker's checks stay
 * below the areas (the embedded broker, the EMQX and RabbitMQ hooks all ask through access.ts).
 *
 * Whatever a family answers, access.ts allows only topics under the operator's own workspace
 * (`ws/{workspaceId}/...`): nothing of one workspace reaches another.
 */
export interface TopicFamily {
  /** Whether a topic is one of the family's, by its name alone (no database). */
  owns(topic: string): boolean;
  /** Whether this operator may hear the topic now (read at every SUBSCRIBE). */
  allows(knex: Knex, operator: { workspaceId: number; operatorId: number }, topic: string): Promise<boolean>;
  /** Every topic of the family the operator may hear now, for a broker that takes the list at CONNECT (EMQX). */
  topicsOf(knex: Knex, operator: { workspaceId: number; operatorId: number }): Promise<string[]>;
}

const families: TopicFamily[] = [];

export function registerTopicFamily(family: TopicFamily): void {
  if (!families.includes(family)) families.push(family);
}

/** The family a topic belongs to, if any. */
export function topicFamilyOf(topic: string): TopicFamily | undefined {
  return families.find((f) => f.owns(topic));
}

/** Every family topic the operator may hear now. */
export async function familyTopicsOf(knex: Knex, operator: { workspaceId: number; operatorId: number }): Promise<string[]> {
  return (await Promise.all(families.map((f) => f.topicsOf(knex, operator)))).flat();
}
