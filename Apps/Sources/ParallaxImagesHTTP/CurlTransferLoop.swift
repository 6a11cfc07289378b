import CCurl
import Foundation
import ParallaxImages

/// The thread that carries a ``CurlTransport``'s requests: one libcurl
/// multi handle, every transfer on it, and the connection pool it keeps.
///
/// Callers never wait on it: ``start(_:)`` and ``cancel(_:)`` take a lock
/// for a few list operations and wake the thread (`curl_multi_wakeup`,
/// under the same lock, so never after the thread has freed the handle);
/// every outcome comes back through the transfer's continuation. So no
/// thread of Swift's cooperative pool is ever blocked by the network.
///
/// A cancelled transfer is taken off the multi handle at once, which
/// closes its connection mid-answer (HTTP/1.1) or resets its stream
/// (HTTP/2): the server stops sending, nothing is drained.
///
/// Complexity: O(1) per transfer started, cancelled or ended, besides
/// libcurl's own work.
final class CurlTransferLoop: @unchecked Sendable {
    private let lock = NSLock()
    /// Transfers handed over and not yet on the multi handle (under `lock`).
    private var incoming: [CurlTransfer] = []
    /// Running transfers to take off (under `lock`).
    private var cancelling: [CurlTransfer] = []
    private var stopping = false
    /// The thread has left its loop: nothing may wake it any more.
    private var exited = false
    /// The thread has freed the multi handle and is ending.
    private var finished = false
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []
    /// The multi handle; used only on the loop's thread, but for
    /// `curl_multi_wakeup`, which libcurl allows from any thread.
    private let multi: UnsafeMutableRawPointer
    /// The transfers on the multi handle, by their easy handle (loop thread only).
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    /// A loop with its own thread; `nil` when libcurl cannot be loaded or
    /// cannot make a multi handle.
    init?(configuration: CurlTransport.Configuration) {
        guard CurlTransport.initializeLibcurlOnce(), let multi = pk_curl_multi_init() else { return nil }
        self.multi = multi
        // Requests over the limit wait in libcurl's queue for a connection.
        _ = pk_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, configuration.maximumConnectionsPerHost))
        let thread = Thread { [self] in run() }
        thread.name = "CurlTransport"
        thread.start()
    }

    /// Starts `transfer`, whose continuation is set; ends it at once when
    /// it was cancelled before, or the loop is stopped.
    func start(_ transfer: CurlTransfer) {
        lock.lock()
        let early: HTTPTransportError?
        if transfer.phase == .cancelledEarly {
            early = .cancelled
        } else if stopping {
            early = .failed("the transport has been shut down")
        } else {
            early = nil
            transfer.phase = .queued
            incoming.append(transfer)
            wakeLocked()
        }
        let continuation = early == nil ? nil : transfer.takeContinuation()
        lock.unlock()
        if let early { continuation?.resume(returning: .failure(early)) }
    }

    /// Cancels `transfer`: if the loop has not taken it yet it ends here
    /// with `.cancelled`; if it is running the loop takes it off the wire
    /// and ends it so; if it has not been started, ``start(_:)`` will.
    func cancel(_ transfer: CurlTransfer) {
        lock.lock()
        var endsHere = false
        switch transfer.phase {
        case .new:
            transfer.phase = .cancelledEarly
        case .queued:
            incoming.removeAll { $0 === transfer }
            endsHere = true
        case .running:
            cancelling.append(transfer)
            wakeLocked()
        case .ended, .cancelledEarly:
            break
        }
        let continuation = endsHere ? transfer.takeContinuation() : nil
        lock.unlock()
        if endsHere { continuation?.resume(returning: .failure(.cancelled)) }
    }

    /// Ends every transfer with `.cancelled`, closes the pooled
    /// connections and lets the thread end. Transfers started later fail.
    func stop() {
        lock.lock()
        stopping = true
        wakeLocked()
        lock.unlock()
    }

    /// Wakes the thread from `curl_multi_poll`, unless it has ended. Call
    /// with `lock` held: the thread frees the multi handle only after it
    /// has said, under the lock, that it ended.
    private func wakeLocked() {
        if !exited { pk_curl_multi_wakeup(multi) }
    }

    /// Returns once the thread has ended (after ``stop()``).
    func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if finished {
                lock.unlock()
                continuation.resume()
            } else {
                exitWaiters.append(continuation)
                lock.unlock()
            }
        }
    }

    // MARK: The loop's thread

    private func run() {
        while true {
            lock.lock()
            let arrived = incoming, cancelled = cancelling, stop = stopping
            incoming = []
            cancelling = []
            for transfer in arrived { transfer.phase = .running }
            lock.unlock()

            for transfer in arrived {
                running[transfer.handle] = transfer
                pk_curl_multi_add_handle(multi, transfer.handle)
            }
            for transfer in cancelled { end(transfer, with: .failure(.cancelled)) }
            if stop {
                for transfer in Array(running.values) { end(transfer, with: .failure(.cancelled)) }
                break
            }

            var stillRunning: Int32 = 0
            pk_curl_multi_perform(multi, &stillRunning)
            var left: Int32 = 0
            while let message = pk_curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                      let transfer = running[handle] else { continue }
                end(transfer, with: transfer.outcome(pk_curl_message_result(message)))
            }
            // Sleeps until a socket is ready, a timeout of libcurl's is due, or a wake-up.
            pk_curl_multi_poll(multi, nil, 0, 1_000, nil)
        }
        lock.lock()
        exited = true
        lock.unlock()
        pk_curl_multi_cleanup(multi)
        lock.lock()
        finished = true
        let waiters = exitWaiters
        exitWaiters = []
        lock.unlock()
        for waiter in waiters { waiter.resume() }
    }

    /// Takes `transfer` off the multi handle (closing its connection if the
    /// answer was not over) and hands back `outcome`, once.
    private func end(_ transfer: CurlTransfer, with outcome: Result<HTTPTransportResponse, HTTPTransportError>) {
        guard running.removeValue(forKey: transfer.handle) != nil else { return }
        pk_curl_multi_remove_handle(multi, transfer.handle)
        lock.lock()
        let continuation = transfer.takeContinuation()
        lock.unlock()
        continuation?.resume(returning: outcome)
    }
}
