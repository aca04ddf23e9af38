// Moved to api/campaigns (the api reads a file's column headers on upload): kept here for the worker's imports.
export * from '../../api/campaigns/numbersFile';
