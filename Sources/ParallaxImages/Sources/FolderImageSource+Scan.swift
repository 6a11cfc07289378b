import Foundation

extension FolderImageSource {
    /// The photos of the tree as it is walked: batches of photos in tree
    /// order (the first after a few hundred photos, so a first screen can
    /// be drawn from it), then a ``FolderScan/Event/finished(_:)`` report
    /// counting the videos and other files not listed and naming what could
    /// not be read or followed; or ``FolderScan/Event/failed(_:)`` alone
    /// when the folder itself cannot be read.
    ///
    /// The walk runs on a thread of its own, never on Swift's cooperative
    /// pool nor on the threads that read photos; it stops when the consumer
    /// stops iterating (the stream is cancelled or dropped). Photos reached
    /// only through a link to a folder come after the rest.
    ///
    /// - Parameter readingFileStatus: Whether each photo's size and
    ///   modification time are read (one `fstatat` per photo) into its
    ///   ``ListedPhoto``, as a library index needs them. Without it a photo
    ///   carries its ID and inode only, and the walk costs about what
    ///   `find DIR -type f` does.
    /// - Parameter inBackground: Whether the walk is background work, as
    ///   when it only checks photos a library index already shows: it then
    ///   runs at the priority of background decodes (nice 10 on Linux),
    ///   below the decodes of the screen it would otherwise share the cores
    ///   with (nice 5), instead of beside them. Any walk drops to it once its
    ///   first batch is out.
    /// - Parameter firstScreen: When given, the walk waits after its first
    ///   batch until the screen drawn from it is full (``FirstScreenSignal``),
    ///   so that the screen's decodes have the cores to themselves.
    public func scan(readingFileStatus: Bool = true, inBackground: Bool = false,
                     waitingAfterFirstBatchFor firstScreen: FirstScreenSignal? = nil) -> AsyncStream<FolderScan.Event> {
        scan(waitingAfterFirstBatchFor: firstScreen) {
            $0.readsFileStatus = readingFileStatus
            $0.isBackground = inBackground
        }
    }

    /// ``scan(readingFileStatus:inBackground:waitingAfterFirstBatchFor:)`` with the walk's settings
    /// (limits, batch sizes, test hooks) adjusted by `configure`.
    func scan(waitingAfterFirstBatchFor firstScreen: FirstScreenSignal? = nil,
              _ configure: (inout PhotoTreeWalk) -> Void) -> AsyncStream<FolderScan.Event> {
        // Not `AsyncStream.makeStream`, which the iOS 16 SDK lacks.
        var captured: AsyncStream<FolderScan.Event>.Continuation?
        let stream = AsyncStream(bufferingPolicy: .unbounded) { captured = $0 }
        guard let continuation = captured else { return stream }
        let root: [UInt8]
        switch rootRealPath() {
        case .success(let path): root = path
        case .failure(let error):
            continuation.yield(.failed(error))
            continuation.finish()
            return stream
        }
        var walk = PhotoTreeWalk(root: root)
        configure(&walk)
        let cancelled = Locked(false)
        let stopped = walk.hooks.consumerStopped
        continuation.onTermination = { termination in
            guard case .cancelled = termination else { return }
            cancelled.withLock { $0 = true }
            firstScreen?.abandon()
            stopped?()
        }
        let thread = Thread { [walk] in
            // Below the frames, as the decodes for the screen are: a walk of 100,000 photos is a second of
            // work that must not make a frame late, and it still has most of a core whenever they leave one.
            // In the background, below those decodes too; and so once the first batch is out, enough for a
            // first screen: the rest arrive while the person looks, and the decodes of what they look at come
            // first (at 100,000 photos the walk's share of the cores delayed a first launch's full screen).
            BlockingWorkQueue.lowerCurrentThreadPriority(
                to: walk.isBackground ? BlockingWorkQueue.backgroundNiceValue : BlockingWorkQueue.urgentNiceValue)
            var isFirstBatch = true
            let result = walk.run(isCancelled: { cancelled.withLock { $0 } }, emit: { batch in
                continuation.yield(.photos(batch))
                guard isFirstBatch else { return }
                isFirstBatch = false
                if !walk.isBackground {
                    BlockingWorkQueue.lowerCurrentThreadPriority(to: BlockingWorkQueue.backgroundNiceValue)
                }
                if let firstScreen {
                    walk.hooks.waitingForFirstScreen?()
                    firstScreen.wait()
                }
            })
            switch result {
            case .success(let report): continuation.yield(.finished(report))
            case .failure(let error): continuation.yield(.failed(error))
            }
            continuation.finish()
        }
        thread.name = "ParallaxImages.scan"
        thread.qualityOfService = walk.isBackground ? .utility : .userInitiated
        thread.start()
        return stream
    }

    /// The real path of ``directory``, or why there is no folder to walk.
    private func rootRealPath() -> Result<[UInt8], ImageSourceError> {
        let path = directory.path
        var status = stat()
        guard stat(path, &status) == 0 else {
            let reason = errno
            return .failure(.unavailable(reason == ENOENT || reason == ENOTDIR ? "there is no photo folder at \(path)"
                                         : "the photo folder \(path) cannot be read: \(String(cString: strerror(reason)))"))
        }
        guard status.st_mode & S_IFMT == S_IFDIR, let real = PhotoTreeWalk.realPath(Array(path.utf8)) else {
            return .failure(.unavailable("there is no photo folder at \(path)"))
        }
        return .success(real)
    }
}
