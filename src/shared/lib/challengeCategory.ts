import BugReportOutlined from '@mui/icons-material/BugReportOutlined';
import CodeOutlined from '@mui/icons-material/CodeOutlined';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import FingerprintOutlined from '@mui/icons-material/FingerprintOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import LanguageOutlined from '@mui/icons-material/LanguageOutlined';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import MemoryOutlined from '@mui/icons-material/MemoryOutlined';
import PhoneAndroidOutlined from '@mui/icons-material/PhoneAndroidOutlined';
import PsychologyOutlined from '@mui/icons-material/PsychologyOutlined';
import SecurityOutlined from '@mui/icons-material/SecurityOutlined';
import SettingsBackupRestoreOutlined from '@mui/icons-material/SettingsBackupRestoreOutlined';
import TravelExploreOutlined from '@mui/icons-material/TravelExploreOutlined';
import type { SvgIconComponent } from '@mui/icons-material';
import { ChallengeCategory } from '../api/enums.generated';

/** The thirteen challenge categories of the contract, in its (and the scoreboard's) order. */
export const CHALLENGE_CATEGORIES = ChallengeCategory;
export type ChallengeCategoryName = ChallengeCategory;

export interface CategoryLook {
  icon: SvgIconComponent;
  /** Mid-tone colours: readable as an icon or chip on both the light and the dark theme. */
  color: string;
}

/**
 * How each category looks everywhere (spec §3: every category has an icon and a colour), so the
 * admin list and the players' challenge board agree. Names and descriptions are texts: they live in
 * the translations of the pages that show them.
 */
export const CATEGORY_LOOK: Readonly<Record<ChallengeCategoryName, CategoryLook>> = {
  Misc: { icon: ExtensionOutlined, color: '#0d9488' },
  Crypto: { icon: KeyOutlined, color: '#6366f1' },
  Pwn: { icon: BugReportOutlined, color: '#e11d48' },
  Web: { icon: LanguageOutlined, color: '#2563eb' },
  Reverse: { icon: SettingsBackupRestoreOutlined, color: '#d97706' },
  Blockchain: { icon: LinkOutlined, color: '#65a30d' },
  Forensics: { icon: FingerprintOutlined, color: '#0891b2' },
  Hardware: { icon: MemoryOutlined, color: '#7c3aed' },
  Mobile: { icon: PhoneAndroidOutlined, color: '#db2777' },
  PPC: { icon: CodeOutlined, color: '#ea580c' },
  AI: { icon: PsychologyOutlined, color: '#9333ea' },
  Pentest: { icon: SecurityOutlined, color: '#dc2626' },
  OSINT: { icon: TravelExploreOutlined, color: '#059669' },
};

/** The look of a category, with Misc's for a value this client does not know yet. */
export function categoryLook(category: string): CategoryLook {
  return CATEGORY_LOOK[category as ChallengeCategoryName] ?? CATEGORY_LOOK.Misc;
}
