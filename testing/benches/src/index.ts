export {
  type BenchReport,
  benchReport,
  measuredOn,
  recordTable,
  replaceSection,
  WRITE_README,
} from "./readme.js";
