// Moved to common/validation/storable.ts, where the validation pipe applies it to every request.
export * from '../../../../common/validation/storable';
