import { isFileItem, normalizeContent, type ContentItem } from '../../conversations/content';
import { csatViewOf, type CsatView } from '../../csat/present';

/** A message as the widget shows it: in GET /v1/widget/messages, in the widget POST answers and in chat.widgetNewMessage. */
export interface WidgetMessage {
  id: number;
  /** Text items `{insert}` and file items `{file: {fileName, mime, size, url}}` (url signed for the visitor). */
  content: Array<{ insert: string } | { file: { fileName: string; mime: string; size: number; url: string } }>;
  type: number;
  createdAt: string;
  sender: string;
  operator: { name: string; avatar: string | null } | null;
  /** A satisfaction question (docs/csat.md): the widget draws its rating buttons, or the rating given. */
  csat?: CsatView;
}

export interface WidgetMessageSource {
  id: number;
  content: unknown[];
  type: number;
  createdAt: Date | string;
  sender: string;
  operator?: { name: string; avatar: string | null } | null;
  extraData?: unknown;
}

/** Signs a download URL for one stored file (api/assets). */
export type FileUrlSigner = (key: string, fileName: string) => string;

/**
 * Only what the visitor may see: text and files, never the stored key alone, the agent's e-mail or id,
 * nor any attribute of the stored ops.
 */
export function presentWidgetMessage(message: WidgetMessageSource, signUrl: FileUrlSigner): WidgetMessage {
  const items: ContentItem[] = normalizeContent(Array.isArray(message.content) ? message.content : []);
  const csat = csatViewOf(message.extraData);
  return {
    id: message.id,
    content: items.map((item) =>
      isFileItem(item)
        ? { file: { fileName: item.file.fileName, mime: item.file.mime, size: item.file.size, url: signUrl(item.file.key, item.file.fileName) } }
        : { insert: item.insert },
    ),
    type: message.type,
    createdAt: new Date(message.createdAt).toISOString(),
    sender: message.sender,
    operator: message.operator ? { name: message.operator.name, avatar: message.operator.avatar } : null,
    ...(csat ? { csat } : {}),
  };
}
