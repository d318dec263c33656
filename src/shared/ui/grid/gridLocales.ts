import { deDE, esES, frFR, idID, jaJP, koKR, ruRU, viVN, zhCN, zhTW } from '@mui/x-data-grid/locales';
import type { Language } from '@/shared/i18n/languages';

/** The grid's own texts (pagination, column menu) in every platform language but English, its default. */
export const GRID_LOCALES = {
  'zh-CN': zhCN,
  'zh-TW': zhTW,
  'ja-JP': jaJP,
  'id-ID': idID,
  'ko-KR': koKR,
  'ru-RU': ruRU,
  'vi-VN': viVN,
  'de-DE': deDE,
  'fr-FR': frFR,
  'es-ES': esES,
} satisfies Record<Exclude<Language, 'en-US'>, unknown>;
