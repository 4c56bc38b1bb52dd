/** A graph: each node with the nodes it points to. */
export type Graph = Map<string, Set<string>>;
/** The `.ts` source files (not tests) under a folder. */
export declare function sourceFiles(dir: string): string[];
/** Every module a file imports or re-exports from (type imports included), as written. */
export declare function importsOf(file: string): string[];
/** Strongly connected groups of a graph, each with more than one node or a self-edge. */
export declare function circles(graph: Graph): string[][];
/** One package's files and the relative imports between them. */
export declare function fileGraph(srcDir: string): Graph;
/** Core's structure: rooms, circles among files, and imports between rooms that import each other round. */
export declare function coreStructure(root: string): {
  rooms: Graph;
  fileCircles: string[][];
  roomCircles: string[][];
  backUp: string[];
};
/** The workspace's packages and apps, each with the internal packages its manifest and source use. */
export declare function packageGraph(root: string): { graph: Graph; folders: Map<string, string> };
/** Each package's floor: 0 for one that uses no other, else one above the highest it uses. */
export declare function floors(graph: Graph): Map<string, number>;
