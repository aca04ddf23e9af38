import { registerAdapter } from './adapter';
import { registerInbound } from './inbound';
import { widgetAdapter } from './widget/adapter';
import { whatsappAdapter } from './whatsapp/adapter';
import { emailAdapter } from './email/adapter';
import { telegramAdapter } from './telegram/adapter';
import { customAdapter } from './custom/adapter';
import { facebookAdapter } from './facebook/adapter';
import { instagramAdapter } from './instagram/adapter';
import { whatsappInbound } from './whatsapp/inbound';
import { telegramInbound } from './telegram/inbound';
import { customInbound } from './custom/inbound';
import { facebookInbound, instagramInbound } from './meta/inbound';
import { emailInbound } from './email/inbound';
import { widgetInbound } from './widget/inbound';

/** Every channel's adapter (outbound half) and inbound half, registered once when the api loads (imported by api/app.ts). */
registerAdapter(widgetAdapter);
registerAdapter(whatsappAdapter);
registerAdapter(emailAdapter);
registerAdapter(telegramAdapter);
registerAdapter(customAdapter);
registerAdapter(facebookAdapter);
registerAdapter(instagramAdapter);

registerInbound(whatsappInbound);
registerInbound(telegramInbound);
registerInbound(customInbound);
registerInbound(facebookInbound);
registerInbound(instagramInbound);
registerInbound(emailInbound);
registerInbound(widgetInbound);
