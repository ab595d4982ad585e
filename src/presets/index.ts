// Presets: named failure stories kept as files in presets/ (docs/presets.md).
export { validatePreset, validateRule, type Preset } from './validate.js';
export { builtinPresetsDir, findPreset, isPresetPath, listPresetNames, listPresets, loadPresetFile, resolvePreset, UnknownPresetError } from './load.js';
export { applyPreset } from './apply.js';
export { parsePresetRef, type PresetRef, type PresetParam } from './params.js';
