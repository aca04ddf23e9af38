/**
 * Longest visitor message, in characters as `String.length` and a textarea's `maxlength` both count them
 * (UTF-16 code units). Its own module so the widget bundle (ui/widget) shares it without pulling in zod.
 */
export const MAX_WIDGET_TEXT = 4000;
