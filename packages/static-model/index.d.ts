/** Where the default static model (static-model.bin) is: a file: URL in Node, an asset URL in a bundle. */
export declare const modelUrl: URL;
