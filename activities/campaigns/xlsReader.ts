// Moved to api/campaigns with numbersFile.ts: kept here for the tests' imports.
export * from '../../api/campaigns/xlsReader';
