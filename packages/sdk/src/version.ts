/** This SDK's version, sent as `x-openmates-sdk`. A test keeps it equal to package.json's. */
export const VERSION = '0.1.0';
