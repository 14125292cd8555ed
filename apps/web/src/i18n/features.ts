import i18n from './index';
import { enFeatures, esFeatures } from './resources';

// The feature areas' texts join the shell's before any signed-in screen renders (their top-level
// keys are their own, so a shallow merge adds them without touching the shell's).
i18n.addResourceBundle('es', 'translation', esFeatures, false, true);
i18n.addResourceBundle('en', 'translation', enFeatures, false, true);
