export { measuredOn, recordTable, replaceSection, WRITE_README } from "./readme.js";
