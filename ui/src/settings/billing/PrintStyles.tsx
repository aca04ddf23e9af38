import GlobalStyles from '@mui/material/GlobalStyles';

/** The class of the one box that is printed; the app's header, banners and menus are not. */
export const PRINT_AREA = 'billing-print-area';

/**
 * window.print() of a receipt or a boleto prints only the `.billing-print-area` box, from the top of the
 * first page, with no app chrome (the page's box scrolls on screen, so its height limit is lifted for paper).
 */
export function PrintStyles() {
  return (
    <GlobalStyles
      styles={{
        '@media print': {
          'body *': { visibility: 'hidden' },
          [`.${PRINT_AREA}, .${PRINT_AREA} *`]: { visibility: 'visible' },
          [`.${PRINT_AREA}`]: { position: 'absolute', left: 0, top: 0, width: '100%', boxShadow: 'none !important', border: 'none !important' },
          '.billing-no-print': { display: 'none !important' },
          'html, body, #root, #main-content': { height: 'auto !important', overflow: 'visible !important' },
        },
      }}
    />
  );
}
