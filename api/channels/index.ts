import { registerAdapter } from './adapter';
import { widgetAdapter } from './widget/adapter';
import { whatsappAdapter } from './whatsapp/adapter';
import { emailAdapter } from './email/adapter';
import { telegramAdapter } from './telegram/adapter';
import { customAdapter } from './custom/adapter';
import { facebookAdapter } from './facebook/adapter';
import { instagramAdapter } from './instagram/adapter';

/** Every channel adapter, registered once when the api loads (imported by api/app.ts). */
registerAdapter(widgetAdapter);
registerAdapter(whatsappAdapter);
registerAdapter(emailAdapter);
registerAdapter(telegramAdapter);
registerAdapter(customAdapter);
registerAdapter(facebookAdapter);
registerAdapter(instagramAdapter);
